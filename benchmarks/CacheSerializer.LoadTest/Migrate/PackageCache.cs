using CacheSerializer.LoadTest.Checking;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Models;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>A new web server's cache client: this package's <see cref="MemcachedClient"/>, resolved from the web
/// server's own service provider (<see cref="MigrationClients.FromSection"/>), with its defaults: an item it cannot read
/// is a miss, a server failure is a miss or a failed store. Each is <see cref="CacheReply{T}.Caught"/> (an exception the
/// client caught), counted as an exception on a new server, as the old servers' are; any other exception reaches the
/// web server's code, and is counted there.</summary>
internal sealed class PackageCache : IWebServerCache
{
    private readonly ServiceProvider _services;
    private readonly MemcachedClient _client;
    private readonly bool _migrationPhase;

    /// <summary>Creates the cache of a web server whose services hold its client.</summary>
    /// <param name="services">The web server's service provider (disposed with this).</param>
    /// <param name="migrationPhase">Whether its client writes objects as EnyimMemcachedCore does (the migration phase):
    /// its deletes are then <c>InvalidateAsync</c> (docs/client.md, "In the migration phase").</param>
    public PackageCache(ServiceProvider services, bool migrationPhase)
    {
        _services = services;
        _client = services.GetRequiredService<MemcachedClient>();
        _migrationPhase = migrationPhase;
    }

    /// <inheritdoc/>
    public bool Old => false;

    /// <summary>Gets the client.</summary>
    public MemcachedClient Client => _client;

    /// <inheritdoc/>
    public async Task<CacheReply<UserFolderTree?>> GetAsync(string key, CancellationToken cancellationToken)
    {
        // The client reads an item it cannot read as a miss; the web server's CheckingTranscoder marks this read's probe.
        var probe = ReadProbe.Start();
        var requests = CallProbe.Start();
        MemcachedGetResult<UserFolderTree> result = await _client.GetAsync<UserFolderTree>(key, cancellationToken).ConfigureAwait(false);
        bool failed = requests.ServerFailures > 0;
        return new(
            result.Found ? result.Value : null,
            probe.Unreadable is { } reason ? $"GetAsync(\"{key}\"): an item the client could not read ({reason}), read as a miss"
            : failed ? $"GetAsync(\"{key}\"): a server failure, read as a miss (OnServerFailure = Miss)"
            : null,
            Requests: requests.ToString(),
            ServerFailed: failed);
    }

    /// <inheritdoc/>
    public async Task<CacheReply<bool>> SetAsync(string key, UserFolderTree value, CancellationToken cancellationToken)
    {
        var requests = CallProbe.Start();
        MemcachedStoreResult result = await _client.SetAsync(key, value, expiration: null, cancellationToken).ConfigureAwait(false);
        return new(result == MemcachedStoreResult.Stored, result == MemcachedStoreResult.ServerFailure ? $"SetAsync(\"{key}\"): a server failure, caught (OnServerFailure = Miss)" : null, Requests: $"{result}: {requests}");
    }

    /// <summary>Reads a key through <see cref="MemcachedClient.GetOrCreateAsync{T}"/>: one factory call per miss in the farm.</summary>
    /// <param name="key">The key.</param>
    /// <param name="factory">Reads the source of truth (and tells the ledger a write of the key starts).</param>
    /// <param name="cancellationToken">The web server stopping.</param>
    /// <returns>The value, from memcached or from a factory.</returns>
    public async Task<CacheReply<UserFolderTree?>> GetOrCreateAsync(string key, Func<CancellationToken, Task<UserFolderTree>> factory, CancellationToken cancellationToken)
    {
        var probe = ReadProbe.Start();
        var requests = CallProbe.Start();
        UserFolderTree value = await _client.GetOrCreateAsync(key, factory, cancellationToken: cancellationToken).ConfigureAwait(false);
        bool failed = requests.ServerFailures > 0;
        return new(
            value,
            probe.Unreadable is { } reason ? $"GetOrCreateAsync(\"{key}\"): an item the client could not read ({reason}), read as a miss"
            : failed ? $"GetOrCreateAsync(\"{key}\"): a server failure, caught (OnServerFailure = Miss)"
            : null,
            Requests: requests.ToString(),
            ServerFailed: failed);
    }

    /// <inheritdoc/>
    /// <remarks>In the migration phase, <see cref="MemcachedClient.InvalidateAsync"/>: it deletes the key, and the lease
    /// beside it, so that a factory in flight on another new server stores nothing; a plain delete of a key that holds
    /// nothing leaves no trace for such a factory to lose against. After the flip, a plain delete (the placeholder under
    /// the key stands for the lease; InvalidateAsync would mark the value stale, which the plain reads still serve).
    /// <para>Under <c>OnServerFailure = Miss</c> the client answers false for a key that was absent and for a delete its
    /// server failed alike (down, a timeout, a broken connection: it may not have been made), so whether it completed is
    /// read from the outcome the client recorded for each of the call's requests (<see cref="CallProbe"/>): a delete one
    /// of whose requests failed on its server is not completed, and is counted as a server failure caught, as a failed
    /// <see cref="SetAsync"/> is. Taking it for completed counted every later read of the value it did not delete as
    /// stale.</para></remarks>
    public async Task<CacheReply<bool>> DeleteAsync(string key, CancellationToken cancellationToken)
    {
        var requests = CallProbe.Start();
        bool deleted = _migrationPhase
            ? await _client.InvalidateAsync(key, cancellationToken: cancellationToken).ConfigureAwait(false)
            : await _client.DeleteAsync(key, cancellationToken).ConfigureAwait(false);
        bool failed = requests.ServerFailures > 0;
        return new(
            !failed,
            failed ? $"{(_migrationPhase ? "InvalidateAsync" : "DeleteAsync")}(\"{key}\"): a server failure, caught (OnServerFailure = Miss)" : null,
            Requests: $"answered {deleted}: {requests}");
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => _services.DisposeAsync();
}
