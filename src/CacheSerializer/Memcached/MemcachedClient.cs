using System.Diagnostics;
using CacheSerializer.Memcached.Internal;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace CacheSerializer.Memcached;

/// <summary>
/// A memcached client over the meta protocol (memcached 1.6.18 or later): pipelined connections, a small pool per server,
/// keys spread by libmemcached-compatible ketama, values turned into items by an <see cref="ITranscoder"/>.
/// </summary>
/// <remarks>
/// Thread-safe; create one per application and share it. Every call is asynchronous, honours its
/// <see cref="CancellationToken"/> and fails with <see cref="MemcachedException"/> naming the server and the operation
/// (see docs/client.md for the failure policy and the key rule).
/// </remarks>
public sealed partial class MemcachedClient : IAsyncDisposable, IDisposable
{
    private readonly ClientSettings _settings;
    private readonly MemcachedNode[] _nodes;
    private readonly KetamaLocator _locator;
    private readonly ITranscoder _transcoder;
    private readonly Timer _heartbeat;
    private int _disposed;

    /// <summary>Creates a client from options, validated and copied now.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="MemcachedConfigurationException">An option is invalid; the exception names it.</exception>
    public MemcachedClient(MemcachedClientOptions options)
        : this(options, null)
    {
    }

    /// <summary>Creates a client from options, logging server down/up events through <paramref name="loggerFactory"/>.</summary>
    /// <param name="options">The options.</param>
    /// <param name="loggerFactory">Where to log; null for no logging.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="MemcachedConfigurationException">An option is invalid; the exception names it.</exception>
    public MemcachedClient(MemcachedClientOptions options, ILoggerFactory? loggerFactory)
    {
        _settings = ClientSettings.Create(options);
        _transcoder = _settings.Transcoder;
        ILogger logger = (ILogger?)loggerFactory?.CreateLogger<MemcachedClient>() ?? NullLogger.Instance;
        _nodes = new MemcachedNode[_settings.Servers.Count];
        for (int i = 0; i < _nodes.Length; i++)
        {
            _nodes[i] = new MemcachedNode(_settings.Servers[i], _settings, logger);
        }

        _locator = new KetamaLocator(_settings.Servers);

        // One timer checks every connection's oldest request against the operation timeout; no timer per request.
        TimeSpan period = TimeSpan.FromMilliseconds(Math.Clamp(_settings.OperationTimeout.TotalMilliseconds / 4, 10, 250));
        _heartbeat = new Timer(static state => ((MemcachedClient)state!).CheckTimeouts(), this, period, period);
    }

    /// <summary>Gets the name of the <see cref="System.Diagnostics.Metrics.Meter"/> the client reports on.</summary>
    public static string MeterName => MemcachedMetrics.MeterName;

    /// <summary>Gets the configured servers, as <c>host:port</c>, in configuration order.</summary>
    public IReadOnlyList<string> Servers => Array.ConvertAll(_nodes, static n => n.Name);

    /// <summary>Gets the transcoder the client uses.</summary>
    public ITranscoder Transcoder => _transcoder;

    /// <summary>Returns the server (<c>host:port</c>) a key is stored on.</summary>
    /// <param name="key">The key, without the prefix.</param>
    /// <returns>The server that owns the key.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    public string GetServerForKey(string key) => Locate(MemcachedKey.Create(_settings.KeyPrefix, key)).Name;

    /// <summary>Reads a value.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value, or a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    public async Task<MemcachedGetResult<T>> GetAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        GetReply reply = await GetRawAsync(key, cas: false, touchTtl: -1, cancellationToken).ConfigureAwait(false);
        return reply.Hit ? new MemcachedGetResult<T>(_transcoder.Deserialize<T>(reply.Item), 0) : default;
    }

    /// <summary>Reads a value, or the default of <typeparamref name="T"/> on a miss (EnyimMemcachedCore's <c>GetValueAsync</c>).</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The value, or default on a miss; use <see cref="GetAsync{T}"/> to tell a stored default from a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    public async Task<T?> GetValueAsync<T>(string key, CancellationToken cancellationToken = default) =>
        (await GetAsync<T>(key, cancellationToken).ConfigureAwait(false)).Value;

    /// <summary>Reads a value; on a miss, creates it with <paramref name="factory"/>, stores it and returns it.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The expiration of a created value; null or zero: never expires.</param>
    /// <param name="factory">Creates the value on a miss.</param>
    /// <param name="cancellationToken">Cancels the waits (not the factory, which receives it).</param>
    /// <returns>The cached or created value.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="factory"/> is null.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
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

    /// <summary>Reads a value with its CAS token, for a later <see cref="CasAsync{T}"/>.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value and its CAS token, or a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    public async Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken = default)
    {
        GetReply reply = await GetRawAsync(key, cas: true, touchTtl: -1, cancellationToken).ConfigureAwait(false);
        return reply.Hit ? new MemcachedGetResult<T>(_transcoder.Deserialize<T>(reply.Item), reply.Cas) : default;
    }

    /// <summary>Reads a value and sets its expiration in the same command.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The new expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value, or a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    public async Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        GetReply reply = await GetRawAsync(key, cas: false, Expiration.ToTtl(expiration), cancellationToken).ConfigureAwait(false);
        return reply.Hit ? new MemcachedGetResult<T>(_transcoder.Deserialize<T>(reply.Item), 0) : default;
    }

    /// <summary>Stores a value whether or not the key exists.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> SetAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(MetaWriter.ModeSet, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <summary>Stores a value only if the key does not exist.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, or <see cref="MemcachedStoreResult.NotStored"/> when the key exists.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> AddAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(MetaWriter.ModeAdd, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <summary>Stores a value only if the key exists.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, or <see cref="MemcachedStoreResult.NotStored"/> when the key is missing.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> ReplaceAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        StoreAsync(MetaWriter.ModeReplace, key, _transcoder.Serialize(value), expiration, 0, cancellationToken);

    /// <summary>Appends raw bytes to an existing item's data (its flags and expiration are kept).</summary>
    /// <param name="key">The key.</param>
    /// <param name="data">The bytes to append.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the append may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, or <see cref="MemcachedStoreResult.NotStored"/> when the key is missing.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The result is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> AppendAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        StoreAsync(MetaWriter.ModeAppend, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <summary>Prepends raw bytes to an existing item's data (its flags and expiration are kept).</summary>
    /// <param name="key">The key.</param>
    /// <param name="data">The bytes to prepend.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the prepend may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, or <see cref="MemcachedStoreResult.NotStored"/> when the key is missing.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The result is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> PrependAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default) =>
        StoreAsync(MetaWriter.ModePrepend, key, new CacheItem(0, data), null, 0, cancellationToken);

    /// <summary>Stores a value only if the item's CAS token still equals <paramref name="cas"/> (compare-and-swap).</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="cas">The CAS token from <see cref="GetWithCasAsync{T}"/>; must not be 0.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.Exists"/> (changed since) or <see cref="MemcachedStoreResult.NotFound"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="cas"/> is 0 or <paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, or the server is down, timed out or answered with an error.</exception>
    public Task<MemcachedStoreResult> CasAsync<T>(string key, T value, ulong cas, TimeSpan? expiration = null, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfZero(cas);
        return StoreAsync(MetaWriter.ModeSet, key, _transcoder.Serialize(value), expiration, cas, cancellationToken);
    }

    /// <summary>Deletes an item.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the delete may still happen).</param>
    /// <returns>True when the item was deleted, false when it did not exist.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    public Task<bool> DeleteAsync(string key, CancellationToken cancellationToken = default)
    {
        MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Delete(encoded), read: false, cancellationToken);
    }

    /// <summary>Sets an item's expiration without reading it.</summary>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The new expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>True when the item exists and was touched, false when it did not exist.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The server is down, timed out, or answered with an error.</exception>
    public Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken = default)
    {
        long ttl = Expiration.ToTtl(expiration);
        MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Touch(encoded, ttl), read: false, cancellationToken);
    }

    /// <summary>Adds <paramref name="delta"/> to a counter (a decimal number stored as text), wrapping at 2^64.</summary>
    /// <param name="key">The key.</param>
    /// <param name="delta">The amount to add.</param>
    /// <param name="initialValue">The value to create the counter with when it is missing; null to leave a missing counter missing.</param>
    /// <param name="expiration">The expiration of a counter created on a miss; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The new value, or null when the counter is missing and no initial value was given.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The item is not a number (CLIENT_ERROR), or the server is down, timed out or answered with an error.</exception>
    public Task<ulong?> IncrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        ArithmeticAsync(key, decrement: false, delta, initialValue, expiration, cancellationToken);

    /// <summary>Subtracts <paramref name="delta"/> from a counter, stopping at 0.</summary>
    /// <param name="key">The key.</param>
    /// <param name="delta">The amount to subtract.</param>
    /// <param name="initialValue">The value to create the counter with when it is missing; null to leave a missing counter missing.</param>
    /// <param name="expiration">The expiration of a counter created on a miss; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The new value, or null when the counter is missing and no initial value was given.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The item is not a number (CLIENT_ERROR), or the server is down, timed out or answered with an error.</exception>
    public Task<ulong?> DecrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default) =>
        ArithmeticAsync(key, decrement: true, delta, initialValue, expiration, cancellationToken);

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/>.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _heartbeat.Dispose();
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

    internal Task<GetReply> GetRawAsync(string key, bool cas, long touchTtl, CancellationToken cancellationToken, bool ttl = false)
    {
        MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), new GetRequest(encoded, cas, touchTtl, ttl), read: true, cancellationToken);
    }

    internal Task<MemcachedStoreResult> StoreAsync(byte mode, string key, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken)
    {
        long ttl = Expiration.ToTtl(expiration);
        MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        MemcachedNode node = Locate(encoded);
        if (item.Data.Count > _settings.MaxValueSize)
        {
            var request = new StoreRequest(encoded, mode, item, ttl, cas);
            ThrowHelper.ThrowValueTooLarge(node.Name, request.Operation, item.Data.Count, _settings.MaxValueSize);
        }

        return ExecuteAsync(node, new StoreRequest(encoded, mode, item, ttl, cas), read: false, cancellationToken);
    }

    private Task<ulong?> ArithmeticAsync(string key, bool decrement, ulong delta, ulong? initialValue, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        long ttl = Expiration.ToTtl(expiration);
        MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
        return ExecuteAsync(Locate(encoded), new ArithmeticRequest(encoded, decrement, delta, initialValue, ttl), read: false, cancellationToken);
    }

    private MemcachedNode Locate(in MemcachedKey key) => _nodes.Length == 1 ? _nodes[0] : _nodes[_locator.Locate(key.Binary)];

    /// <summary>Routes a request to its server, waits for its reply, and records the outcome; <c>read</c> says whether a
    /// server failure may count as a miss (<see cref="MemcachedClientOptions.MissOnServerFailure"/>).</summary>
    private async Task<TResult> ExecuteAsync<TResult>(MemcachedNode node, MemcachedRequest<TResult> request, bool read, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        request.Server = node.Name;
        string outcome = "error";
        try
        {
            cancellationToken.ThrowIfCancellationRequested();
            MemcachedConnection connection = await node.AcquireAsync(request.Operation, cancellationToken).ConfigureAwait(false);
            connection.Send(request);
            TResult result;
            if (!cancellationToken.CanBeCanceled)
            {
                result = await request.Task.ConfigureAwait(false);
            }
            else
            {
                using (cancellationToken.UnsafeRegister(static (state, token) => ((MemcachedRequest<TResult>)state!).Cancel(token), request))
                {
                    result = await request.Task.ConfigureAwait(false);
                }
            }

            outcome = request.Outcome;
            return result;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            outcome = "cancelled";
            throw;
        }
        catch (MemcachedException ex) when (read && _settings.MissOnServerFailure && IsServerFailure(ex.Kind))
        {
            outcome = "miss";
            return default!;
        }
        finally
        {
            MemcachedMetrics.RecordOperation(node.Name, request.Operation, outcome, start);
        }
    }

    private static bool IsServerFailure(MemcachedErrorKind kind) =>
        kind is MemcachedErrorKind.ServerDown or MemcachedErrorKind.ConnectFailed or MemcachedErrorKind.ConnectionBroken
            or MemcachedErrorKind.Timeout or MemcachedErrorKind.QueueFull;

    private void CheckTimeouts()
    {
        long now = Stopwatch.GetTimestamp();
        foreach (MemcachedNode node in _nodes)
        {
            node.CheckTimeouts(now);
        }
    }
}
