using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>
/// One build of the models of a change kind, as a web server runs it: the transcoder (whose type aliases give the
/// build's class the type identity both builds share), how it reads a key, and the value its factory makes for a key.
/// </summary>
/// <remarks>Values are compared as text (<see cref="Describe"/>): each model writes every member it has, in one format
/// for both builds where the contract is the same, so a hit equals the expected text only when every member read back.</remarks>
internal abstract class DeployBuild
{
    /// <summary>Gets the build number, 1 or 2.</summary>
    public abstract int Number { get; }

    /// <summary>Creates the transcoder of this build (a new one per web server, as each process has its own).</summary>
    /// <returns>The transcoder.</returns>
    public abstract ProtobufTranscoder CreateTranscoder();

    /// <summary>Reads a key as this build's code does (<c>GetAsync</c> of its own type).</summary>
    /// <param name="client">The web server's client.</param>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Ends the read when the web server stops.</param>
    /// <returns>The value as text, or null on a miss.</returns>
    public abstract Task<string?> ReadAsync(MemcachedClient client, string key, CancellationToken cancellationToken);

    /// <summary>The factory after a miss, as the README's cache-aside fills: makes version <paramref name="version"/> of
    /// key <paramref name="k"/>'s value and adds it (<c>AddAsync</c>, no expiry), which keeps another build's item and
    /// stores this build's copy beside it (docs/client.md, "Rolling deploys").</summary>
    /// <param name="client">The web server's client.</param>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number, from which the value is made.</param>
    /// <param name="version">The version of the key's row in the source of truth.</param>
    /// <param name="cancellationToken">Ends the write when the web server stops.</param>
    /// <returns>What memcached did with the add.</returns>
    public abstract Task<MemcachedStoreResult> FillAsync(MemcachedClient client, string key, int k, int version, CancellationToken cancellationToken);

    /// <summary>An update's overwrite (and the loader's first store): makes version <paramref name="version"/> of key
    /// <paramref name="k"/>'s value and stores it (<c>SetAsync</c>, no expiry).</summary>
    /// <param name="client">The web server's client.</param>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number, from which the value is made.</param>
    /// <param name="version">The version of the key's row in the source of truth.</param>
    /// <param name="cancellationToken">Ends the write when the web server stops.</param>
    /// <returns>What memcached did with the set.</returns>
    public abstract Task<MemcachedStoreResult> WriteAsync(MemcachedClient client, string key, int k, int version, CancellationToken cancellationToken);

    /// <summary>Reads a key through the client's <c>GetOrCreateAsync</c> of this build's type (its default options).</summary>
    /// <param name="client">The web server's client.</param>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number, from which the factory makes the value.</param>
    /// <param name="load">The factory's read of the row's version.</param>
    /// <param name="cancellationToken">Ends the call when the web server stops.</param>
    /// <returns>The value as text.</returns>
    public abstract Task<string> GetOrCreateAsync(MemcachedClient client, string key, int k, Func<CancellationToken, Task<int>> load, CancellationToken cancellationToken);

    /// <summary>Reads a key through HybridCache's <c>GetOrCreateAsync</c> of this build's type.</summary>
    /// <param name="hybrid">The web server's HybridCache.</param>
    /// <param name="options">The entry options.</param>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number, from which the factory makes the value.</param>
    /// <param name="load">The factory's read of the row's version.</param>
    /// <param name="cancellationToken">Ends the call when the web server stops.</param>
    /// <returns>The value as text.</returns>
    public abstract Task<string> GetOrCreateAsync(HybridCache hybrid, HybridCacheEntryOptions options, string key, int k, Func<CancellationToken, Task<int>> load, CancellationToken cancellationToken);

    /// <summary>An update's overwrite through HybridCache's <c>SetAsync</c>, which reports nothing.</summary>
    /// <param name="hybrid">The web server's HybridCache.</param>
    /// <param name="options">The entry options.</param>
    /// <param name="key">The key.</param>
    /// <param name="k">The key's number, from which the value is made.</param>
    /// <param name="version">The version of the key's row in the source of truth.</param>
    /// <param name="cancellationToken">Ends the write when the web server stops.</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/> once HybridCache's set completed.</returns>
    public abstract Task<MemcachedStoreResult> WriteAsync(HybridCache hybrid, HybridCacheEntryOptions options, string key, int k, int version, CancellationToken cancellationToken);

    /// <summary>Returns the text of the value this build's factory makes for version <paramref name="version"/> of key <paramref name="k"/>.</summary>
    /// <param name="k">The key's number.</param>
    /// <param name="version">The version.</param>
    /// <returns>The text.</returns>
    public abstract string Expected(int k, int version);
}
