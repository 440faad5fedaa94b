using CacheSerializer.LoadTest.Checking;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>One web server of the farm: its own service provider, <see cref="MemcachedClient"/> (its own connections and
/// in-process single flight) and HybridCache, read the way the mode says.</summary>
internal sealed class FarmWebServer : IAsyncDisposable
{
    /// <summary>The expiration of every stored value: long, since the schedule expires the keys.</summary>
    private static readonly TimeSpan Stored = TimeSpan.FromHours(1);

    /// <summary>HybridCache with its local cache off: an expiry in memcached is a miss on every server, as in the other modes.</summary>
    private static readonly HybridCacheEntryOptions HybridEntry = new() { Expiration = Stored, Flags = HybridCacheEntryFlags.DisableLocalCache };

    private readonly ServiceProvider _services;
    private readonly MemcachedClient _client;
    private readonly HybridCache _hybrid;
    private readonly GetOrCreateOptions _farm;
    private readonly GetOrCreateOptions _farmStale;

    private FarmWebServer(ServiceProvider services, FarmSettings settings, CheckingTranscoder transcoder)
    {
        _services = services;
        Transcoder = transcoder;
        _client = services.GetRequiredService<MemcachedClient>();
        _hybrid = services.GetRequiredService<HybridCache>();
        _farm = Options(settings, TimeSpan.Zero);
        _farmStale = Options(settings, StaleWindow(settings));
    }

    /// <summary>Gets the web server's transcoder, which counts the items it cannot read.</summary>
    public CheckingTranscoder Transcoder { get; }

    /// <summary>Creates the transcoder a web server has by default (the package's, with its defaults).</summary>
    /// <returns>The transcoder.</returns>
    public static ITranscoder CreateTranscoder() => new ProtobufTranscoder();

    /// <summary>Returns the options of the GetOrCreateAsync modes, also used by the schedule's <c>InvalidateAsync</c>.</summary>
    /// <param name="settings">The run's settings.</param>
    /// <param name="staleWindow">The stale-while-revalidate window (zero for <see cref="FarmMode.Farm"/>).</param>
    /// <returns>The options.</returns>
    public static GetOrCreateOptions Options(FarmSettings settings, TimeSpan staleWindow) =>
        new() { Expiration = Stored, StaleWhileRevalidate = staleWindow, LockTimeout = settings.LockTimeout };

    /// <summary>Returns the stale window of <see cref="FarmMode.FarmStale"/>: long enough to cover every refresh of the run.</summary>
    /// <param name="settings">The run's settings.</param>
    /// <returns>The window.</returns>
    public static TimeSpan StaleWindow(FarmSettings settings) => TimeSpan.FromTicks(Math.Max(TimeSpan.FromMinutes(1).Ticks, 2 * settings.ExpireEvery.Ticks));

    /// <summary>Starts a web server on the given memcached servers.</summary>
    /// <param name="endpoints">The memcached servers.</param>
    /// <param name="settings">The run's settings.</param>
    /// <param name="transcoder">Its transcoder (also HybridCache's serializer's); the client keeps its default
    /// OnUnreadableItem = Miss, so an item it cannot read is a miss, counted by the transcoder.</param>
    /// <returns>The web server; dispose it to close its connections.</returns>
    public static FarmWebServer Start(IReadOnlyList<string> endpoints, FarmSettings settings, CheckingTranscoder transcoder)
    {
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Transcoder = transcoder;
            foreach (string endpoint in endpoints)
            {
                o.Servers.Add(endpoint);
            }
        });
        services.AddHybridCache();
        services.AddHybridCacheTranscoder();
        return new FarmWebServer(services.BuildServiceProvider(), settings, transcoder);
    }

    /// <summary>Reads a hot key the way the mode does, creating it with <paramref name="factory"/> on a miss.</summary>
    /// <param name="mode">The mode.</param>
    /// <param name="key">The key.</param>
    /// <param name="factory">The database query.</param>
    /// <param name="cancellationToken">Ends the wait at the end of the run.</param>
    /// <returns>The value read or created.</returns>
    public async Task<string?> ReadAsync(FarmMode mode, string key, Func<CancellationToken, Task<string>> factory, CancellationToken cancellationToken) => mode switch
    {
        FarmMode.Plain => await ReadThroughAsync(key, factory, cancellationToken).ConfigureAwait(false),
        FarmMode.Hybrid => await _hybrid.GetOrCreateAsync(key, token => new ValueTask<string>(factory(token)), HybridEntry, cancellationToken: cancellationToken).ConfigureAwait(false),
        FarmMode.Farm => await _client.GetOrCreateAsync(key, factory, _farm, cancellationToken).ConfigureAwait(false),
        _ => await _client.GetOrCreateAsync(key, factory, _farmStale, cancellationToken).ConfigureAwait(false),
    };

    /// <summary>Plain cache-aside, as the README shows it: get, and on a miss the factory and a set.</summary>
    private async Task<string?> ReadThroughAsync(string key, Func<CancellationToken, Task<string>> factory, CancellationToken cancellationToken)
    {
        MemcachedGetResult<string> cached = await _client.GetAsync<string>(key, cancellationToken).ConfigureAwait(false);
        if (cached.Found)
        {
            return cached.Value;
        }

        string created = await factory(cancellationToken).ConfigureAwait(false);
        await _client.SetAsync(key, created, Stored, cancellationToken).ConfigureAwait(false);
        return created;
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => _services.DisposeAsync();
}
