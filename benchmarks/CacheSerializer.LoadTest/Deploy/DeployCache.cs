using CacheSerializer.LoadTest.Checking;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>
/// One web server's cache, as its build's code uses it through the run's <see cref="DeployApi"/>: a
/// <see cref="MemcachedClient"/> of the build's transcoder (which counts what it cannot read), with the main pass's
/// operation timeout, and for
/// <see cref="DeployApi.Hybrid"/> the HybridCache registered over it as an application would
/// (<c>AddMemcached</c>, <c>AddHybridCache</c>, <c>AddHybridCacheTranscoder</c>).
/// </summary>
internal sealed class DeployCache : IAsyncDisposable
{
    /// <summary>HybridCache with its local cache off: every read reaches memcached, whose entries the deploy is about.</summary>
    private static readonly HybridCacheEntryOptions HybridEntry = new() { Flags = HybridCacheEntryFlags.DisableLocalCache };

    private readonly ServiceProvider _services;
    private readonly DeployBuild _build;
    private readonly HybridCache? _hybrid;

    private DeployCache(ServiceProvider services, DeployBuild build, DeployApi api)
    {
        _services = services;
        _build = build;
        Client = services.GetRequiredService<MemcachedClient>();
        _hybrid = api == DeployApi.Hybrid ? services.GetRequiredService<HybridCache>() : null;
    }

    /// <summary>Gets the web server's client.</summary>
    public MemcachedClient Client { get; }

    /// <summary>Creates the cache of a web server of <paramref name="build"/>; the client keeps its default
    /// OnUnreadableItem = Miss, as the build's web server would.</summary>
    /// <param name="api">How the build's code reads.</param>
    /// <param name="build">The build.</param>
    /// <param name="endpoints">The memcached servers.</param>
    /// <param name="wrapTranscoder">Wraps the build's transcoder (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The cache; dispose it to close its connections.</returns>
    public static DeployCache Create(DeployApi api, DeployBuild build, IReadOnlyList<string> endpoints, Func<ITranscoder, ITranscoder>? wrapTranscoder = null)
    {
        ITranscoder transcoder = build.CreateTranscoder();
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Transcoder = new CheckingTranscoder(wrapTranscoder?.Invoke(transcoder) ?? transcoder);

            // The main pass's timeout: a read that waits seconds on a loaded machine (the suite's assemblies run side
            // by side) is slow, not a server failure the client would answer with a miss.
            o.OperationTimeout = Running.ContenderPass.OperationTimeout;
            foreach (string endpoint in endpoints)
            {
                o.Servers.Add(endpoint);
            }
        });
        if (api == DeployApi.Hybrid)
        {
            services.AddHybridCache();
            services.AddHybridCacheTranscoder();
        }

        return new DeployCache(services.BuildServiceProvider(), build, api);
    }

    /// <summary>Reads key <paramref name="k"/> through <c>GetOrCreateAsync</c> (the client's, or HybridCache's): on a
    /// miss, <paramref name="load"/> gives the version of the row the factory makes the value from.</summary>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number.</param>
    /// <param name="load">The factory's read of the source of truth.</param>
    /// <param name="cancellationToken">Ends the call when the web server stops.</param>
    /// <returns>The value as text.</returns>
    public Task<string> GetOrCreateAsync(string key, int k, Func<CancellationToken, Task<int>> load, CancellationToken cancellationToken) =>
        _hybrid is null
            ? _build.GetOrCreateAsync(Client, key, k, load, cancellationToken)
            : _build.GetOrCreateAsync(_hybrid, HybridEntry, key, k, load, cancellationToken);

    /// <summary>An update's overwrite, and the loader's first store: <c>SetAsync</c> of the client, or HybridCache's
    /// (which reports nothing: <see cref="MemcachedStoreResult.Stored"/>).</summary>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number.</param>
    /// <param name="version">The row's version.</param>
    /// <param name="cancellationToken">Ends the write when the web server stops.</param>
    /// <returns>What memcached did with the set.</returns>
    public Task<MemcachedStoreResult> WriteAsync(string key, int k, int version, CancellationToken cancellationToken) =>
        _hybrid is null
            ? _build.WriteAsync(Client, key, k, version, cancellationToken)
            : _build.WriteAsync(_hybrid, HybridEntry, key, k, version, cancellationToken);

    /// <summary>An update's delete: <c>DeleteAsync</c> of the client, or HybridCache's <c>RemoveAsync</c>.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Ends the delete when the web server stops.</param>
    /// <returns>The delete.</returns>
    public async Task DeleteAsync(string key, CancellationToken cancellationToken)
    {
        if (_hybrid is null)
        {
            await Client.DeleteAsync(key, cancellationToken).ConfigureAwait(false);
        }
        else
        {
            await _hybrid.RemoveAsync(key, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => _services.DisposeAsync();
}
