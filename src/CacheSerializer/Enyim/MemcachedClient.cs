using CacheSerializer.Enyim.Internal;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using CoreStoreMode = CacheSerializer.Memcached.Internal.Requests.StoreMode;

namespace CacheSerializer.Enyim;

/// <summary>EnyimMemcachedCore's client (<see cref="IMemcachedClient"/>) over this package's client and its engine:
/// registered by <c>AddEnyimMemcached</c>, or created over a client the application already has.</summary>
/// <remarks>
/// Every method is one asynchronous path into the engine; a synchronous method runs that path on the calling thread
/// (<see cref="SyncCall"/>), never on a thread-pool thread. Items are read and written by the core client's transcoder,
/// on its servers, under its failure policy: under the default <see cref="ServerFailurePolicy.Miss"/> a failed server
/// reads as a miss and a store returns false, as EnyimMemcachedCore's <c>SuppressException</c> does.
/// </remarks>
public class MemcachedClient : IMemcachedClient
{
    private readonly MemcachedEngine _engine;
    private Action<IMemcachedNode>? _nodeFailed;
    private int _disposed;

    /// <summary>Creates the EnyimMemcachedCore-shaped front of a client; the client stays the caller's (or the container's)
    /// to dispose.</summary>
    /// <param name="client">The client whose servers, transcoder and options every call uses.</param>
    /// <exception cref="ArgumentNullException"><paramref name="client"/> is null.</exception>
    public MemcachedClient(CoreClient client)
    {
        ArgumentNullException.ThrowIfNull(client);
        _engine = client.Engine;
        _engine.NodeStateChanged += OnNodeStateChanged;
    }

    /// <inheritdoc/>
    public event Action<IMemcachedNode> NodeFailed
    {
        add => _nodeFailed += value;
        remove => _nodeFailed -= value;
    }

    /// <inheritdoc/>
    public bool Add(string key, object value, int cacheSeconds) => Store(StoreMode.Add, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Add(string key, object value, uint cacheSeconds) => Store(StoreMode.Add, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Add(string key, object value, TimeSpan timeSpan) => Store(StoreMode.Add, key, value, timeSpan);

    /// <inheritdoc/>
    public Task<bool> AddAsync(string key, object value, int cacheSeconds) => StoreAsync(StoreMode.Add, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> AddAsync(string key, object value, uint cacheSeconds) => StoreAsync(StoreMode.Add, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> AddAsync(string key, object value, TimeSpan timeSpan) => StoreAsync(StoreMode.Add, key, value, timeSpan);

    /// <inheritdoc/>
    public bool Set(string key, object value, int cacheSeconds) => Store(StoreMode.Set, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Set(string key, object value, uint cacheSeconds) => Store(StoreMode.Set, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Set(string key, object value, TimeSpan timeSpan) => Store(StoreMode.Set, key, value, timeSpan);

    /// <inheritdoc/>
    public Task<bool> SetAsync(string key, object value, int cacheSeconds) => StoreAsync(StoreMode.Set, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> SetAsync(string key, object value, uint cacheSeconds) => StoreAsync(StoreMode.Set, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> SetAsync(string key, object value, TimeSpan timeSpan) => StoreAsync(StoreMode.Set, key, value, timeSpan);

    /// <inheritdoc/>
    public bool Replace(string key, object value, int cacheSeconds) => Store(StoreMode.Replace, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Replace(string key, object value, uint cacheSeconds) => Store(StoreMode.Replace, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public bool Replace(string key, object value, TimeSpan timeSpan) => Store(StoreMode.Replace, key, value, timeSpan);

    /// <inheritdoc/>
    public Task<bool> ReplaceAsync(string key, object value, int cacheSeconds) => StoreAsync(StoreMode.Replace, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> ReplaceAsync(string key, object value, uint cacheSeconds) => StoreAsync(StoreMode.Replace, key, value, TimeSpan.FromSeconds(cacheSeconds));

    /// <inheritdoc/>
    public Task<bool> ReplaceAsync(string key, object value, TimeSpan timeSpan) => StoreAsync(StoreMode.Replace, key, value, timeSpan);

    /// <inheritdoc/>
    [Obsolete("Use GetAsync<T> instead")]
    public async Task<IGetOperationResult> GetAsync(string key) =>
        (ObjectGetOperationResult)await ReadAsync(key, new ObjectGetOperationResult()).ConfigureAwait(false);

    /// <inheritdoc/>
    public async Task<IGetOperationResult<T>> GetAsync<T>(string key) => await ReadAsync(key, new GetOperationResult<T>()).ConfigureAwait(false);

    /// <inheritdoc/>
    public async Task<T> GetValueAsync<T>(string key) => (await ReadAsync(key, new GetOperationResult<T>()).ConfigureAwait(false)).Value;

    /// <inheritdoc/>
    public async Task<T> GetValueOrCreateAsync<T>(string key, int cacheSeconds, Func<Task<T>> generator)
    {
        GetOperationResult<T> cached = await ReadAsync(key, new GetOperationResult<T>()).ConfigureAwait(false);
        if (cached.Success)
        {
            return cached.Value;
        }

        // EnyimMemcachedCore awaits generator?.Invoke(): a null generator fails there with a NullReferenceException.
        ArgumentNullException.ThrowIfNull(generator);
        T value = await generator().ConfigureAwait(false);
        if (value is not null)
        {
            await StoreAsync(StoreMode.Add, key, value, EnyimExpiration.FromSeconds(cacheSeconds), 0).ConfigureAwait(false);
        }

        return value;
    }

    /// <inheritdoc/>
    [Obsolete("Use Get<T> instead")]
    public object? Get(string key) => Get<object>(key);

    /// <inheritdoc/>
    public T Get<T>(string key) => SyncCall.Run(() => GetValueAsync<T>(key));

    /// <inheritdoc/>
    public IDictionary<string, T> Get<T>(IEnumerable<string> keys) => SyncCall.Run(() => GetAsync<T>(keys));

    /// <inheritdoc/>
    public async Task<IDictionary<string, T>> GetAsync<T>(IEnumerable<string> keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        IReadOnlyDictionary<string, T?> hits = await _engine.Reads.GetManyAsync<T>(keys, CancellationToken.None).ConfigureAwait(false);
        return hits.ToDictionary(hit => hit.Key, hit => hit.Value!, StringComparer.Ordinal);
    }

    /// <inheritdoc/>
    [Obsolete("Use TryGet<T> instead")]
    public bool TryGet(string key, out object? value) => TryGet<object>(key, out value);

    /// <inheritdoc/>
    public bool TryGet<T>(string key, out T value)
    {
        GetOperationResult<T> result = SyncCall.Run(() => ReadAsync(key, new GetOperationResult<T>()));
        value = result.Value;
        return result.Success;
    }

    /// <inheritdoc/>
    public bool TryGetWithCas(string key, out CasResult<object> value) => TryGetWithCas<object>(key, out value);

    /// <inheritdoc/>
    public bool TryGetWithCas<T>(string key, out CasResult<T> value)
    {
        GetOperationResult<T> result = SyncCall.Run(() => ReadAsync(key, new GetOperationResult<T>()));
        value = new CasResult<T> { Result = result.Value, Cas = result.Cas };
        return result.Success;
    }

    /// <inheritdoc/>
    public CasResult<object> GetWithCas(string key) => GetWithCas<object>(key);

    /// <inheritdoc/>
    public CasResult<T> GetWithCas<T>(string key)
    {
        TryGetWithCas(key, out CasResult<T> value);
        return value;
    }

    /// <inheritdoc/>
    public IDictionary<string, CasResult<object>> GetWithCas(IEnumerable<string> keys) => SyncCall.Run(() => GetWithCasAsync(keys));

    /// <inheritdoc/>
    /// <remarks>One <c>mg</c> with its CAS token per key, all pipelined at once (the core's batched read returns no tokens).</remarks>
    public async Task<IDictionary<string, CasResult<object>>> GetWithCasAsync(IEnumerable<string> keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        IReadOnlyDictionary<string, MemcachedGetResult<object>> reads = await _engine.Reads.GetManyWithCasAsync<object>(keys, CancellationToken.None).ConfigureAwait(false);
        var hits = new Dictionary<string, CasResult<object>>(StringComparer.Ordinal);
        foreach ((string key, MemcachedGetResult<object> read) in reads)
        {
            hits[key] = new CasResult<object> { Result = read.Value!, Cas = read.Cas };
        }

        return hits;
    }

    /// <inheritdoc/>
    public bool Append(string key, ArraySegment<byte> data) => SyncCall.Run(() => ConcatAsync(CoreStoreMode.Append, key, 0, data)).Success;

    /// <inheritdoc/>
    public CasResult<bool> Append(string key, ulong cas, ArraySegment<byte> data) => ConcatResult(SyncCall.Run(() => ConcatAsync(CoreStoreMode.Append, key, cas, data)));

    /// <inheritdoc/>
    public bool Prepend(string key, ArraySegment<byte> data) => SyncCall.Run(() => ConcatAsync(CoreStoreMode.Prepend, key, 0, data)).Success;

    /// <inheritdoc/>
    public CasResult<bool> Prepend(string key, ulong cas, ArraySegment<byte> data) => ConcatResult(SyncCall.Run(() => ConcatAsync(CoreStoreMode.Prepend, key, cas, data)));

    /// <inheritdoc/>
    public bool Store(StoreMode mode, string key, object value) => SyncCall.Run(() => StoreAsync(mode, key, value, null, 0)).Success;

    /// <inheritdoc/>
    public bool Store(StoreMode mode, string key, object value, DateTime expiresAt) => SyncCall.Run(() => StoreAsync(mode, key, value, EnyimExpiration.From(expiresAt), 0)).Success;

    /// <inheritdoc/>
    public bool Store(StoreMode mode, string key, object value, TimeSpan validFor) => SyncCall.Run(() => StoreAsync(mode, key, value, EnyimExpiration.From(validFor), 0)).Success;

    /// <inheritdoc/>
    public async Task<bool> StoreAsync(StoreMode mode, string key, object value, DateTime expiresAt) =>
        (await StoreAsync(mode, key, value, EnyimExpiration.From(expiresAt), 0).ConfigureAwait(false)).Success;

    /// <inheritdoc/>
    public async Task<bool> StoreAsync(StoreMode mode, string key, object value, TimeSpan validFor) =>
        (await StoreAsync(mode, key, value, EnyimExpiration.From(validFor), 0).ConfigureAwait(false)).Success;

    /// <inheritdoc/>
    public CasResult<bool> Cas(StoreMode mode, string key, object value) => CasResult(SyncCall.Run(() => StoreAsync(mode, key, value, null, 0)));

    /// <inheritdoc/>
    public CasResult<bool> Cas(StoreMode mode, string key, object value, ulong cas) => CasResult(SyncCall.Run(() => StoreAsync(mode, key, value, null, cas)));

    /// <inheritdoc/>
    public CasResult<bool> Cas(StoreMode mode, string key, object value, DateTime expiresAt, ulong cas) =>
        CasResult(SyncCall.Run(() => StoreAsync(mode, key, value, EnyimExpiration.From(expiresAt), cas)));

    /// <inheritdoc/>
    public CasResult<bool> Cas(StoreMode mode, string key, object value, TimeSpan validFor, ulong cas) =>
        CasResult(SyncCall.Run(() => StoreAsync(mode, key, value, EnyimExpiration.From(validFor), cas)));

    /// <inheritdoc/>
    public ulong Decrement(string key, ulong defaultValue, ulong delta) => SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, null, 0)).Value;

    /// <inheritdoc/>
    public ulong Decrement(string key, ulong defaultValue, ulong delta, DateTime expiresAt) => SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, EnyimExpiration.From(expiresAt), 0)).Value;

    /// <inheritdoc/>
    public ulong Decrement(string key, ulong defaultValue, ulong delta, TimeSpan validFor) => SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, EnyimExpiration.From(validFor), 0)).Value;

    /// <inheritdoc/>
    public CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, ulong cas) => MutateResult(SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, null, cas)));

    /// <inheritdoc/>
    public CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, DateTime expiresAt, ulong cas) =>
        MutateResult(SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, EnyimExpiration.From(expiresAt), cas)));

    /// <inheritdoc/>
    public CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, TimeSpan validFor, ulong cas) =>
        MutateResult(SyncCall.Run(() => MutateAsync(true, key, defaultValue, delta, EnyimExpiration.From(validFor), cas)));

    /// <inheritdoc/>
    public ulong Increment(string key, ulong defaultValue, ulong delta) => SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, null, 0)).Value;

    /// <inheritdoc/>
    public ulong Increment(string key, ulong defaultValue, ulong delta, DateTime expiresAt) => SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, EnyimExpiration.From(expiresAt), 0)).Value;

    /// <inheritdoc/>
    public ulong Increment(string key, ulong defaultValue, ulong delta, TimeSpan validFor) => SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, EnyimExpiration.From(validFor), 0)).Value;

    /// <inheritdoc/>
    public CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, ulong cas) => MutateResult(SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, null, cas)));

    /// <inheritdoc/>
    public CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, DateTime expiresAt, ulong cas) =>
        MutateResult(SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, EnyimExpiration.From(expiresAt), cas)));

    /// <inheritdoc/>
    public CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, TimeSpan validFor, ulong cas) =>
        MutateResult(SyncCall.Run(() => MutateAsync(false, key, defaultValue, delta, EnyimExpiration.From(validFor), cas)));

    /// <inheritdoc/>
    public Task<IOperationResult> TouchAsync(string key, DateTime expiresAt) => TouchAsync(key, EnyimExpiration.From(expiresAt));

    /// <inheritdoc/>
    public Task<IOperationResult> TouchAsync(string key, TimeSpan validFor) => TouchAsync(key, EnyimExpiration.From(validFor));

    /// <inheritdoc/>
    public bool Remove(string key) => SyncCall.Run(() => RemoveAsync(key));

    /// <inheritdoc/>
    public Task<bool> RemoveAsync(string key) => _engine.DeleteAsync(key, CancellationToken.None);

    /// <inheritdoc/>
    public async Task<bool> RemoveMultiAsync(params string[] keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        if (keys.Length == 0)
        {
            return false; // as EnyimMemcachedCore: nothing removed is not a success
        }

        bool[] removed = await Task.WhenAll(Array.ConvertAll(keys, RemoveAsync)).ConfigureAwait(false);
        return Array.TrueForAll(removed, static r => r);
    }

    /// <inheritdoc/>
    public void FlushAll() => SyncCall.Run(FlushAllAsync);

    /// <inheritdoc/>
    public Task FlushAllAsync() => _engine.FlushAllAsync(CancellationToken.None);

    /// <inheritdoc/>
    public ServerStats Stats() => Stats(null);

    /// <inheritdoc/>
    public ServerStats Stats(string? type) =>
        new(SyncCall.Run(() => _engine.GetStatsAsync(CancellationToken.None, type)));

    /// <summary>Stops raising <see cref="NodeFailed"/>. The client this front was created over is not disposed: it belongs
    /// to whoever created it (the container, for a registered one), and other fronts may share it.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Stops raising <see cref="NodeFailed"/>.</summary>
    /// <param name="disposing">True from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposing)
    {
        if (disposing && Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _engine.NodeStateChanged -= OnNodeStateChanged;
        }
    }

    private static CasResult<bool> CasResult(OperationResult result) =>
        new() { Result = result.Success, Cas = result.Cas, StatusCode = result.StatusCode ?? 0 };

    // EnyimMemcachedCore's Append/Prepend with a CAS (MemcachedClient.cs, PerformConcatenate, e383c4c) set no status,
    // and leave the given CAS in the result when nothing was stored.
    private static CasResult<bool> ConcatResult(OperationResult result) => new() { Result = result.Success, Cas = result.Cas };

    private static CasResult<ulong> MutateResult(OperationResult result) =>
        new() { Result = result.Value, Cas = result.Cas, StatusCode = result.StatusCode ?? 0 };

    private async Task<GetOperationResult<T>> ReadAsync<T>(string key, GetOperationResult<T> result)
    {
        MemcachedGetResult<T> read = await _engine.Reads.GetWithCasAsync<T>(key, CancellationToken.None).ConfigureAwait(false);
        result.Fill(read.Found, read.Value, read.Cas);
        return result;
    }

    /// <summary>A store as EnyimMemcachedCore's <c>PerformStore</c> (MemcachedClient.cs, e383c4c): a null value is not
    /// sent and fails; otherwise the reply's status and, when stored, the item's new CAS token.</summary>
    private async Task<OperationResult> StoreAsync(StoreMode mode, string key, object? value, TimeSpan? expiration, ulong cas)
    {
        if (value is null)
        {
            return OperationResult.Failed(Status.NotSent);
        }

        CoreStoreMode coreMode = mode switch
        {
            StoreMode.Add => CoreStoreMode.Add,
            StoreMode.Replace => CoreStoreMode.Replace,
            StoreMode.Set => CoreStoreMode.Set,
            _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, "StoreMode is Add, Replace or Set."),
        };
        MemcachedKey encoded = _engine.Key(key);
        var request = new StoreRequest(encoded, coreMode, _engine.Transcoder.Serialize(value), expiration, cas, returnCas: true);
        MemcachedStoreResult stored = await _engine.StoreAsync(encoded, request, CancellationToken.None).ConfigureAwait(false);
        return stored == MemcachedStoreResult.Stored ? OperationResult.Passed(request.NewCas) : OperationResult.Failed(Status.Of(stored, mode));
    }

    private async Task<OperationResult> ConcatAsync(CoreStoreMode mode, string key, ulong cas, ArraySegment<byte> data)
    {
        MemcachedKey encoded = _engine.Key(key);
        var request = new StoreRequest(encoded, mode, new CacheItem(0, data), null, cas, returnCas: true);
        MemcachedStoreResult stored = await _engine.StoreAsync(encoded, request, CancellationToken.None).ConfigureAwait(false);
        if (stored == MemcachedStoreResult.Stored)
        {
            return OperationResult.Passed(request.NewCas);
        }

        var failed = OperationResult.Failed(Status.Of(stored, null));
        failed.Cas = cas;
        return failed;
    }

    /// <summary>An increment or decrement as EnyimMemcachedCore's binary <c>PerformMutate</c>: a missing counter is created
    /// with <paramref name="defaultValue"/> (and <paramref name="expiration"/>, which only applies then), the reply's
    /// CAS token is returned, and a failure leaves the value 0.</summary>
    private async Task<OperationResult> MutateAsync(bool decrement, string key, ulong defaultValue, ulong delta, TimeSpan? expiration, ulong cas)
    {
        MemcachedKey encoded = _engine.Key(key);
        var request = new ArithmeticRequest(encoded, decrement, delta, defaultValue, expiration, cas, returnCas: true);
        ulong? value = await _engine.ExecuteAsync(encoded, request, CancellationToken.None).ConfigureAwait(false);
        if (value is ulong counter)
        {
            return OperationResult.Passed(request.NewCas, counter);
        }

        return OperationResult.Failed(request.CasMismatch ? Status.Exists : null);
    }

    private async Task<IOperationResult> TouchAsync(string key, TimeSpan? expiration) =>
        await _engine.TouchAsync(key, expiration, CancellationToken.None).ConfigureAwait(false)
            ? OperationResult.Passed()
            : OperationResult.Failed(Status.NotFound);

    private void OnNodeStateChanged(MemcachedNode node)
    {
        // Raised on the reader or heartbeat thread that saw the failure: the handlers run on the pool, never there.
        if (node.IsDown && _nodeFailed is { } handlers)
        {
            var view = new NodeView(node);
            ThreadPool.QueueUserWorkItem(static state => state.Handlers(state.View), (Handlers: handlers, View: (IMemcachedNode)view), preferLocal: false);
        }
    }
}
