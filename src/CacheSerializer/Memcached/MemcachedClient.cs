using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached;

/// <summary>
/// A memcached client over the meta protocol (memcached 1.6.18 or later): pipelined connections, a small pool per server,
/// keys spread by libmemcached-compatible ketama, values turned into items by an <see cref="ITranscoder"/>.
/// </summary>
/// <remarks>
/// Thread-safe; create one per application and share it (<c>AddMemcached</c> registers it, and <see cref="IMemcachedClient"/>
/// for code that wants a fake in its tests). Every call is asynchronous and honours its <see cref="CancellationToken"/>.
/// A server failure never fails a cache call by default (<see cref="MemcachedClientOptions.OnServerFailure"/>); see
/// docs/client.md for the failure policy, the key rule and the instruments.
/// </remarks>
public sealed class MemcachedClient : IMemcachedClient, IAsyncDisposable, IDisposable
{
    // The front: argument checks, then one call into the engine, which owns the servers, routing, the execution of a
    // request and the features (the read path, build copies, get-or-create), each in its room under Internal/.
    private readonly MemcachedEngine _engine;

    /// <summary>Creates a client from options, validated and copied now.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="MemcachedConfigurationException">An option is invalid; the exception names it and the fix.</exception>
    public MemcachedClient(MemcachedClientOptions options)
        : this(options, null)
    {
    }

    /// <summary>Creates a client from options, logging its settings once and each server outage (its start and its end)
    /// through <paramref name="loggerFactory"/>.</summary>
    /// <param name="options">The options.</param>
    /// <param name="loggerFactory">Where to log; null for no logging.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="MemcachedConfigurationException">An option is invalid; the exception names it and the fix.</exception>
    public MemcachedClient(MemcachedClientOptions options, ILoggerFactory? loggerFactory)
        : this(new MemcachedEngine(options, loggerFactory))
    {
    }

    /// <summary>Creates the front of an engine (dependency injection shares one engine with the hosting adapters).</summary>
    internal MemcachedClient(MemcachedEngine engine)
    {
        _engine = engine;
    }

    /// <summary>Gets the name of the <see cref="System.Diagnostics.Metrics.Meter"/> the client reports on.</summary>
    public static string MeterName => MemcachedTelemetry.Name;

    /// <summary>Gets the name of the <see cref="System.Diagnostics.ActivitySource"/> whose spans (one per operation,
    /// only when something listens) the client emits.</summary>
    public static string ActivitySourceName => MemcachedTelemetry.Name;

    /// <summary>Gets the configured servers, as <c>host:port</c>, in configuration order.</summary>
    public IReadOnlyList<string> Servers => _engine.Servers;

    /// <summary>Gets the transcoder the client uses.</summary>
    public ITranscoder Transcoder => _engine.Transcoder;

    /// <summary>Gets the engine this client is the front of (for tests and the package's own adapters).</summary>
    internal MemcachedEngine Engine => _engine;

    /// <summary>Returns the server (<c>host:port</c>) a key is stored on.</summary>
    /// <param name="key">The key, without the prefix.</param>
    /// <returns>The server that owns the key.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    public string GetServerForKey(string key) => _engine.Locate(_engine.Key(key)).Name;

    /// <inheritdoc/>
    public Task<MemcachedGetResult<T>> GetAsync<T>(string key, CancellationToken cancellationToken = default) =>
        _engine.Reads.GetAsync<T>(_engine.Key(key), cancellationToken);

    /// <inheritdoc/>
    public async Task<T?> GetValueAsync<T>(string key, CancellationToken cancellationToken = default) =>
        (await _engine.Reads.GetAsync<T>(_engine.Key(key), cancellationToken).ConfigureAwait(false)).Value;

    /// <inheritdoc/>
    public Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken = default) =>
        _engine.Reads.GetWithCasAsync<T>(key, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken = default) =>
        _engine.Reads.GetAndTouchAsync<T>(key, expiration, cancellationToken);

    /// <inheritdoc/>
    /// <remarks>One pipelined batch of quiet <c>mg</c>s per server, ended by <c>mn</c>, all servers at once.</remarks>
    public Task<IReadOnlyDictionary<string, T?>> GetManyAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(keys);
        return _engine.Reads.GetManyAsync<T>(keys, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> SetAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        _engine.StoreAsync(StoreMode.Set, key, _engine.Transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <inheritdoc/>
    /// <remarks>A fill after a read that found another build's item stores this build's copy beside it when the key is
    /// taken (docs/client.md, "Rolling deploys"); otherwise a plain add.</remarks>
    public Task<MemcachedStoreResult> AddAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _engine.Key(key);
        return _engine.Copies.AddAsync(encoded, typeof(T), _engine.Transcoder.Serialize(value), expiration, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> ReplaceAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        _engine.StoreAsync(StoreMode.Replace, key, _engine.Transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> AppendAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        _engine.StoreAsync(StoreMode.Append, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> PrependAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        _engine.StoreAsync(StoreMode.Prepend, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> CasAsync<T>(string key, T value, ulong cas, TimeSpan? expiration = null, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfZero(cas);
        return _engine.StoreAsync(StoreMode.Set, key, _engine.Transcoder.Serialize(value), expiration, cas, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> DeleteAsync(string key, CancellationToken cancellationToken = default) =>
        _engine.DeleteAsync(key, cancellationToken);

    /// <inheritdoc/>
    public Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken = default) =>
        _engine.TouchAsync(key, expiration, cancellationToken);

    /// <inheritdoc/>
    public Task<ulong?> IncrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        _engine.ArithmeticAsync(key, decrement: false, delta, initialValue, expiration, cancellationToken);

    /// <inheritdoc/>
    public Task<ulong?> DecrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        _engine.ArithmeticAsync(key, decrement: true, delta, initialValue, expiration, cancellationToken);

    /// <inheritdoc/>
    /// <remarks>One factory call per expiry across the farm: in-process single flight, then memcached's recache flags
    /// (docs/client.md, "GetOrCreateAsync").</remarks>
    public Task<T> GetOrCreateAsync<T>(string key, Func<CancellationToken, Task<T>> factory, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(factory);
        var policy = EntryPolicy.Resolve(options, _engine.Settings.GetOrCreate);
        ObjectDisposedException.ThrowIf(_engine.IsDisposed, this);
        return _engine.Leases.GetOrCreateAsync(key, factory, policy, EntryFormat<T>.Transcoded, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> InvalidateAsync(string key, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default) =>
        _engine.Leases.InvalidateAsync(key, EntryPolicy.Resolve(options, _engine.Settings.GetOrCreate), cancellationToken);

    /// <inheritdoc/>
    public Task FlushAllAsync(CancellationToken cancellationToken = default) => _engine.FlushAllAsync(cancellationToken);

    /// <summary>Reads the general statistics (<c>stats</c>) of every server.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>For each server (<c>host:port</c>) that answered, its statistics by name (pid, uptime, curr_items,
    /// get_hits, ...); under <see cref="ServerFailurePolicy.Miss"/> a failed server is absent.</returns>
    /// <exception cref="MemcachedException">A server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    public Task<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>> GetStatsAsync(CancellationToken cancellationToken = default) =>
        _engine.GetStatsAsync(cancellationToken);

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/> (<see cref="MemcachedErrorKind.ConnectionBroken"/>),
    /// later calls with <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose() => _engine.Dispose();

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/>.</summary>
    /// <returns>A completed task.</returns>
    public ValueTask DisposeAsync()
    {
        _engine.Dispose();
        return ValueTask.CompletedTask;
    }
}
