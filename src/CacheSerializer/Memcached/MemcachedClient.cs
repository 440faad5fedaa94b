using System.Diagnostics;
using System.Runtime.CompilerServices;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

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
public sealed partial class MemcachedClient : IMemcachedClient, IAsyncDisposable, IDisposable
{
    private readonly ClientSettings _settings;
    private readonly MemcachedNode[] _nodes;
    private readonly ServerRing _fullRing;
    private readonly ITranscoder _transcoder;
    private readonly ILogger _logger;
    private readonly UnreadableItems _unreadable;
    private readonly BuildCopies _copies = new();
    private readonly Lock _ringGate = new();
    private readonly ManualResetEventSlim _wake = new();
    private readonly CancellationTokenSource _lifetime = new();
    private readonly FlightTable _flights = new();
    private readonly Action<MemcachedKey, ulong> _returnWin;
    private readonly GetRequestPool _getRequests = new();
    private ServerRing _ring;
    private int _disposed;

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
    {
        _settings = ClientSettings.Create(options);
        _transcoder = _settings.Transcoder;

        _logger = (ILogger?)loggerFactory?.CreateLogger<MemcachedClient>() ?? NullLogger.Instance;
        _nodes = new MemcachedNode[_settings.Servers.Count];
        for (int i = 0; i < _nodes.Length; i++)
        {
            _nodes[i] = new MemcachedNode(_settings.Servers[i], _settings, _logger, OnNodeStateChanged, WakeHeartbeat);
        }

        _fullRing = _ring = new ServerRing(_nodes, _settings);
        _returnWin = ReturnWin;
        _unreadable = new UnreadableItems(_transcoder, _settings.OnUnreadableItem, _logger, "memcached client", key => Locate(key).Endpoint);

        // One thread checks every connection's oldest request against the operation timeout (no timer per request) and
        // probes the servers that are down. It is a thread of its own, like the connections' loops, so a starved thread
        // pool can delay neither a timeout nor a server's return.
        var heartbeat = new Thread(Heartbeat, 128 * 1024) { IsBackground = true, Name = "memcached heartbeat" };
        heartbeat.Start();
        LogSettings();
        WarnOfWeakSecurity();
    }

    /// <summary>Gets the name of the <see cref="System.Diagnostics.Metrics.Meter"/> the client reports on.</summary>
    public static string MeterName => MemcachedTelemetry.Name;

    /// <summary>Gets the name of the <see cref="System.Diagnostics.ActivitySource"/> whose spans (one per operation,
    /// only when something listens) the client emits.</summary>
    public static string ActivitySourceName => MemcachedTelemetry.Name;

    /// <summary>Gets the configured servers, as <c>host:port</c>, in configuration order.</summary>
    public IReadOnlyList<string> Servers => Array.ConvertAll(_nodes, static n => n.Name);

    /// <summary>Gets the transcoder the client uses.</summary>
    public ITranscoder Transcoder => _transcoder;

    /// <summary>Gets what a read does with an item the transcoder cannot read (HybridCache's serializer follows it too).</summary>
    internal UnreadableItemPolicy OnUnreadableItem => _settings.OnUnreadableItem;

    /// <summary>Gets the pool this client's reads take their requests from (for tests).</summary>
    internal GetRequestPool GetRequests => _getRequests;

    /// <summary>Returns the server (<c>host:port</c>) a key is stored on.</summary>
    /// <param name="key">The key, without the prefix.</param>
    /// <returns>The server that owns the key.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    public string GetServerForKey(string key) => Locate(_settings.Key(key)).Name;

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        MemcachedNode node = Locate(encoded);
        GetReply reply = await ExecuteValueAsync(node, GetRequest.Get(encoded, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        MemcachedGetResult<T> result = Read<T>(encoded, reply, withCas: false, out ulong otherBuildCas);
        return otherBuildCas == 0 ? result : await ReadCopyAsync<T>(encoded, node, otherBuildCas, cancellationToken).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public async Task<T?> GetValueAsync<T>(string key, CancellationToken cancellationToken = default) =>
        (await GetAsync<T>(key, cancellationToken).ConfigureAwait(false)).Value;

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        GetReply reply = await ExecuteValueAsync(Locate(encoded), GetRequest.Gets(encoded, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: true);
    }

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        GetReply reply = await ExecuteValueAsync(Locate(encoded), GetRequest.GetAndTouch(encoded, expiration, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: false);
    }

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> SetAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Set, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> AddAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        CacheItem item = _transcoder.Serialize(value);

        // No read of the key found another build's item just before (always, while contracts agree): a plain add, which
        // allocates nothing more than any store.
        return _copies.Remembers(encoded.Original, typeof(T))
            ? AddOrCopyAsync(encoded, typeof(T), item, expiration, cancellationToken)
            : StoreAsync(StoreMode.Add, encoded, item, expiration, 0, cancellationToken);
    }

    /// <summary>The add of a fill after a read of the key found another build's item: when the add finds the key taken,
    /// the fill goes beside that item, as this build's copy bound to it.</summary>
    private async Task<MemcachedStoreResult> AddOrCopyAsync(MemcachedKey encoded, Type type, CacheItem item, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedStoreResult result = await StoreAsync(StoreMode.Add, encoded, item, expiration, 0, cancellationToken).ConfigureAwait(false);
        bool otherBuild = _copies.TryTakeMiss(encoded.Original, type, out ulong cas);
        return result == MemcachedStoreResult.NotStored && otherBuild
            ? await StoreCopyAsync(encoded, type, cas, item, expiration, cancellationToken).ConfigureAwait(false)
            : result;
    }

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> ReplaceAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Replace, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> AppendAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Append, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> PrependAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Prepend, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> CasAsync<T>(string key, T value, ulong cas, TimeSpan? expiration = null, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfZero(cas);
        return StoreAsync(StoreMode.Set, key, _transcoder.Serialize(value), expiration, cas, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> DeleteAsync(string key, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Delete(encoded), cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = _settings.Key(key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Touch(encoded, expiration, _returnWin), cancellationToken);
    }

    /// <inheritdoc/>
    public Task<ulong?> IncrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        ArithmeticAsync(key, decrement: false, delta, initialValue, expiration, cancellationToken);

    /// <inheritdoc/>
    public Task<ulong?> DecrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        ArithmeticAsync(key, decrement: true, delta, initialValue, expiration, cancellationToken);

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/> (<see cref="MemcachedErrorKind.ConnectionBroken"/>),
    /// later calls with <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _wake.Set();
        _lifetime.Cancel();
        foreach (MemcachedNode node in _nodes)
        {
            node.Dispose();
        }
    }

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/>.</summary>
    /// <returns>A completed task.</returns>
    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>Reads an item as it is stored, with its remaining TTL when <paramref name="ttl"/> is set. With
    /// <paramref name="pooled"/> its bytes may be rented: the caller must call <see cref="GetReply.Release"/> once it has
    /// read them, and keep no reference to them.</summary>
    internal Task<GetReply> GetRawAsync(string key, CancellationToken cancellationToken, bool ttl = false, bool pooled = false)
    {
        MemcachedKey encoded = _settings.Key(key);
        bool rent = pooled && _settings.PooledReads;
        return ExecuteAsync(Locate(encoded), ttl ? GetRequest.GetWithTtl(encoded, rent, _returnWin, _getRequests) : GetRequest.Get(encoded, rent, _returnWin, _getRequests), cancellationToken);
    }

    /// <summary>Stores an item; one larger than <see cref="MemcachedClientOptions.MaxValueSize"/> (from a transcoder other
    /// than the package's, which refuses it at Serialize) fails before it is sent.</summary>
    private Task<MemcachedStoreResult> StoreAsync(StoreMode mode, MemcachedKey encoded, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken)
    {
        MemcachedNode node = Locate(encoded);
        var request = new StoreRequest(encoded, mode, item, expiration, cas);
        if (request.ValueSize > _settings.MaxValueSize)
        {
            ThrowHelper.ThrowValueTooLarge(node.Name, request.Operation, request.ValueSize, _settings.MaxValueSize);
        }

        return ExecuteAsync(node, request, cancellationToken);
    }

    private Task<ulong?> ArithmeticAsync(string key, bool decrement, ulong delta, ulong? initialValue, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = _settings.Key(key);
        return ExecuteAsync(Locate(encoded), new ArithmeticRequest(encoded, decrement, delta, initialValue, expiration), cancellationToken);
    }

    /// <summary><see cref="ExecuteValueAsync"/> for a caller that returns its task as it is.</summary>
    private Task<TResult> ExecuteAsync<TResult>(MemcachedNode node, MemcachedRequest<TResult> request, CancellationToken cancellationToken) =>
        ExecuteValueAsync(node, request, cancellationToken).AsTask();

    /// <summary>Sends a request to its server and records the outcome (span, duration); a server failure becomes the
    /// request's failure result under <see cref="ServerFailurePolicy.Miss"/>, and is rethrown under <see cref="ServerFailurePolicy.Throw"/>.</summary>
    /// <remarks>Its state machine comes from a pool, and the request is what it awaits: a call that awaits it allocates
    /// neither (docs/benchmarks.md, "Run of 2026-11-25 (issue 25)").</remarks>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<TResult> ExecuteValueAsync<TResult>(MemcachedNode node, MemcachedRequest<TResult> request, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        Activity? activity = MemcachedTelemetry.StartActivity(request.Operation, node.Endpoint);
        string outcome = "error";
        string? errorType = null;
        bool answered = false;
        try
        {
            TResult result = await node.ExecuteAsync(request, cancellationToken).ConfigureAwait(false);
            outcome = request.Outcome;
            answered = true;
            return result;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            outcome = "cancelled";
            errorType = "cancelled";
            throw;
        }
        catch (MemcachedException ex)
        {
            errorType = Failures.ErrorType(ex.Kind);
            if (!Failures.IsServerFailure(ex.Kind))
            {
                throw;
            }

            node.CountFailedCall();
            if (_settings.OnServerFailure == ServerFailurePolicy.Throw || !request.FollowsFailurePolicy)
            {
                throw;
            }

            outcome = "server_failure";
            return request.FailureResult;
        }
        catch (ObjectDisposedException)
        {
            errorType = "disposed";
            throw;
        }
        finally
        {
            MemcachedTelemetry.RecordOperation(activity, node.Endpoint, request.Operation, outcome, errorType, start, request.BatchSize);
            if (answered)
            {
                request.ReleaseByCaller(); // the request is not touched here after this: it may be reused at once
            }
        }
    }
}
