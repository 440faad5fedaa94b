using System.Diagnostics;
using System.Runtime.CompilerServices;
using CacheSerializer.Memcached.Internal;
using CacheSerializer.Memcached.Internal.Requests;
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
    private readonly Lock _ringGate = new();
    private readonly ManualResetEventSlim _disposing = new();
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
            _nodes[i] = new MemcachedNode(_settings.Servers[i], _settings, _logger, OnNodeStateChanged);
        }

        _fullRing = _ring = new ServerRing(_nodes);
        _returnWin = ReturnWin;
        _unreadable = new UnreadableItems(_transcoder, _settings.OnUnreadableItem, _logger, "memcached client", key => Locate(key).Endpoint);

        // One thread checks every connection's oldest request against the operation timeout (no timer per request). It
        // is a thread of its own, like the connections' loops, so a starved thread pool cannot delay a timeout.
        var heartbeat = new Thread(Heartbeat, 128 * 1024) { IsBackground = true, Name = "memcached heartbeat" };
        heartbeat.Start();
        if (_logger.IsEnabled(LogLevel.Information))
        {
            string servers = string.Join(", ", Servers);
            (string tls, string authentication) = _settings.DescribeSecurity();
            LogStarted(_logger, _nodes.Length, servers, _settings.ConnectionsPerServer, _settings.OperationTimeout.TotalMilliseconds,
            _settings.ConnectTimeout.TotalMilliseconds, _settings.ServerDownInterval.TotalMilliseconds, _settings.OnServerFailure,
            _settings.OnUnreadableItem == UnreadableItemPolicy.Miss && _settings.DeleteUnreadableItems ? "Miss, deleted if unchanged" : _settings.OnUnreadableItem.ToString(),
            _settings.AutoEject ? (_settings.FlushOnReturn ? "on, flush on return" : "on, no flush on return") : "off",
            _settings.KeyPrefix, _settings.MaxValueSize, tls, authentication, _settings.TranscoderDescription);
        }

        WarnOfWeakSecurity();
    }

    /// <summary>Warns once, at start-up, of settings that leave the cache open: server certificates not validated, a
    /// password sent in clear text.</summary>
    private void WarnOfWeakSecurity()
    {
        if (_settings.Tls is { AcceptAnyServerCertificate: true })
        {
            LogCertificatesNotValidated(_logger);
        }

        if (_settings.Credentials is { } credentials)
        {
            string[] plaintext = [.. _settings.Servers.Where(s => _settings.TlsFor(s) is null).Select(static s => s.Name)];
            if (plaintext.Length > 0)
            {
                LogPasswordInClearText(_logger, credentials.UserName, string.Join(", ", plaintext));
            }
        }
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
    public string GetServerForKey(string key) => Locate(MemcachedKey.Create(_settings.KeyPrefix, key)).Name;

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        GetReply reply = await ExecuteValueAsync(Locate(encoded), GetRequest.Get(encoded, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: false);
    }

    /// <inheritdoc/>
    public async Task<T?> GetValueAsync<T>(string key, CancellationToken cancellationToken = default) =>
        (await GetAsync<T>(key, cancellationToken).ConfigureAwait(false)).Value;

    /// <inheritdoc/>
    public async Task<T?> GetValueOrCreateAsync<T>(string key, TimeSpan? expiration, Func<CancellationToken, Task<T>> factory, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(factory);
        MemcachedGetResult<T> cached = await GetAsync<T>(key, cancellationToken).ConfigureAwait(false);
        if (cached.Found)
        {
            return cached.Value;
        }

        T created = await factory(cancellationToken).ConfigureAwait(false);
        await SetAsync(key, created, expiration, cancellationToken).ConfigureAwait(false);
        return created;
    }

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        GetReply reply = await ExecuteValueAsync(Locate(encoded), GetRequest.Gets(encoded, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: true);
    }

    /// <inheritdoc/>
    public async Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        GetReply reply = await ExecuteValueAsync(Locate(encoded), GetRequest.GetAndTouch(encoded, expiration, _settings.PooledReads, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: false);
    }

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> SetAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Set, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <inheritdoc/>
    public Task<MemcachedStoreResult> AddAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(StoreMode.Add, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

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
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Delete(encoded), cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
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

        _disposing.Set();
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
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        bool rent = pooled && _settings.PooledReads;
        return ExecuteAsync(Locate(encoded), ttl ? GetRequest.GetWithTtl(encoded, rent, _returnWin, _getRequests) : GetRequest.Get(encoded, rent, _returnWin, _getRequests), cancellationToken);
    }

    /// <summary>Deserializes a hit (then gives its rented bytes back), or returns a miss; an item the transcoder cannot
    /// read is a miss or throws, as <see cref="MemcachedClientOptions.OnUnreadableItem"/> says.</summary>
    private MemcachedGetResult<T> Read<T>(in MemcachedKey key, in GetReply reply, bool withCas)
    {
        if (!reply.Hit)
        {
            return default;
        }

        try
        {
            return TryRead(key, reply, out T? value) ? new MemcachedGetResult<T>(value, withCas ? reply.Cas : 0) : default;
        }
        finally
        {
            reply.Release();
        }
    }

    /// <summary>Deserializes a hit; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>, which is
    /// then deleted if unchanged when <see cref="MemcachedClientOptions.DeleteUnreadableItems"/> is on.</summary>
    private bool TryRead<T>(in MemcachedKey key, in GetReply reply, out T? value)
    {
        bool delete = _settings.DeleteUnreadableItems && reply.Cas != 0;
        if (_unreadable.TryRead(reply.Item, key, out value, delete))
        {
            return true;
        }

        if (delete)
        {
            DeleteUnreadable(key, reply.Cas);
        }

        return false;
    }

    /// <summary>Deletes an unreadable item in the background, only if its CAS token is still the one read
    /// (<c>md &lt;key&gt; C&lt;cas&gt;</c>: memcached 1.6.18 answers <c>EX</c> and keeps the item when it changed), so a
    /// value another client stored since is never removed.</summary>
    private void DeleteUnreadable(MemcachedKey key, ulong cas) =>
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Client.DeleteUnreadableAsync(s.Key, s.Cas), (Client: this, Key: key, Cas: cas), preferLocal: false);

    private async Task DeleteUnreadableAsync(MemcachedKey key, ulong cas)
    {
        bool deleted = false;
        try
        {
            if (BeforeUnreadableDelete is { } hook)
            {
                await hook(key.Original).ConfigureAwait(false);
            }

            deleted = await ExecuteValueAsync(Locate(key), KeyRequest.Delete(key, cas), CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is MemcachedException or ObjectDisposedException)
        {
            // Best effort: the item then stays until it expires or the key is stored again.
        }
        finally
        {
            UnreadableDeleted?.Invoke(key.Original, deleted);
        }
    }

    /// <summary>Gets or sets what runs before an unreadable item is deleted (for tests: a writer racing the delete).</summary>
    internal Func<string, Task>? BeforeUnreadableDelete { get; set; }

    /// <summary>Gets or sets what is told each unreadable item's delete and whether it removed the item (for tests).</summary>
    internal Action<string, bool>? UnreadableDeleted { get; set; }

    internal Task<MemcachedStoreResult> StoreAsync(StoreMode mode, string key, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken) =>
        StoreAsync(mode, MemcachedKey.Create(_settings.KeyPrefix, key), item, expiration, cas, cancellationToken);

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
        var encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), new ArithmeticRequest(encoded, decrement, delta, initialValue, expiration), cancellationToken);
    }

    /// <summary>The server a key lives on now: its ketama owner, or with auto-eject its owner among the servers that are up.</summary>
    private MemcachedNode Locate(in MemcachedKey key) => Volatile.Read(ref _ring).Locate(key);

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

    /// <summary>A node went down or came back: with auto-eject, the ring is rebuilt over the nodes that are up (all of
    /// them when none is, so calls fail fast rather than pile onto nothing).</summary>
    private void OnNodeStateChanged(MemcachedNode node)
    {
        if (!_settings.AutoEject)
        {
            return;
        }

        lock (_ringGate)
        {
            MemcachedNode[] up = Array.FindAll(_nodes, static n => !n.IsDown);
            ServerRing ring = up.Length == _nodes.Length || up.Length == 0 ? _fullRing : new ServerRing(up);
            Volatile.Write(ref _ring, ring);
            LogRing(_logger, node.Name, node.IsDown ? "ejected" : "returned", ring.Count, _nodes.Length);
        }
    }

    private void Heartbeat()
    {
        var period = TimeSpan.FromMilliseconds(Math.Clamp(_settings.OperationTimeout.TotalMilliseconds / 4, 10, 250));
        while (!_disposing.Wait(period))
        {
            long now = Stopwatch.GetTimestamp();
            foreach (MemcachedNode node in _nodes)
            {
                node.CheckTimeouts(now);
            }
        }

        _disposing.Dispose();
    }

    [LoggerMessage(EventId = 10, Level = LogLevel.Information, Message = "memcached client: {ServerCount} servers ({Servers}), {ConnectionsPerServer} connections per server, operation timeout {OperationTimeoutMs} ms, connect timeout {ConnectTimeoutMs} ms, down servers retried every {DownIntervalMs} ms, on server failure {OnServerFailure}, on unreadable item {OnUnreadableItem}, auto-eject {AutoEject}, key prefix '{KeyPrefix}', values up to {MaxValueSize} bytes, TLS {Tls}, authentication {Authentication}; transcoder {Transcoder}")]
    private static partial void LogStarted(ILogger logger, int serverCount, string servers, int connectionsPerServer, double operationTimeoutMs, double connectTimeoutMs,
        double downIntervalMs, ServerFailurePolicy onServerFailure, string onUnreadableItem, string autoEject, string keyPrefix, int maxValueSize, string tls, string authentication, string transcoder);

    [LoggerMessage(EventId = 12, Level = LogLevel.Warning, Message = "memcached client: server certificates are NOT validated (MemcachedClientOptions.Tls.DangerousAcceptAnyServerCertificate): the connections are encrypted, but anyone on the network path can impersonate the servers and read or change every cached entry; use it only in tests")]
    private static partial void LogCertificatesNotValidated(ILogger logger);

    [LoggerMessage(EventId = 13, Level = LogLevel.Warning, Message = "memcached client: the password of user '{UserName}' is sent in clear text to {Servers}, which are reached without TLS; anyone on the network path can read it (set MemcachedClientOptions.Tls.Enabled)")]
    private static partial void LogPasswordInClearText(ILogger logger, string userName, string servers);

    [LoggerMessage(EventId = 11, Level = LogLevel.Information, Message = "memcached server {Server} {Change}: keys are placed on {UpCount} of {ServerCount} servers (auto-eject)")]
    private static partial void LogRing(ILogger logger, string server, string change, int upCount, int serverCount);
}
