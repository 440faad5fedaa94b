using CacheSerializer.Workloads.Models;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>The cache calls a web server's code makes, through the client of the application it runs: EnyimMemcachedCore's
/// (emulated: <see cref="EnyimClientEmulation"/>) on an old server, this package's on a new one (<see cref="PackageCache"/>).</summary>
internal interface IWebServerCache : IAsyncDisposable
{
    /// <summary>Gets a value indicating whether this is an old web server's client (EnyimMemcachedCore, emulated).</summary>
    bool Old { get; }

    /// <summary>Reads a key: the value, or null for a miss.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">The web server stopping.</param>
    /// <returns>The value, and what the client caught on the way.</returns>
    Task<CacheReply<UserFolderTree?>> GetAsync(string key, CancellationToken cancellationToken);

    /// <summary>Stores a value under a key.</summary>
    /// <param name="key">The key.</param>
    /// <param name="value">The value.</param>
    /// <param name="cancellationToken">The web server stopping.</param>
    /// <returns>Whether memcached stored it, and what the client caught on the way.</returns>
    Task<CacheReply<bool>> SetAsync(string key, UserFolderTree value, CancellationToken cancellationToken);

    /// <summary>Deletes a key.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">The web server stopping.</param>
    /// <returns>Whether the delete completed (the key deleted or absent; not when the client failed on its server, which
    /// this package's client, under its default <c>OnServerFailure = Miss</c>, answers false for as it does for an absent
    /// key), and what it caught on the way.</returns>
    Task<CacheReply<bool>> DeleteAsync(string key, CancellationToken cancellationToken);
}
