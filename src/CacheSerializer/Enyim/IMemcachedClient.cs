// Nullable-oblivious, as EnyimMemcachedCore's own interface (it has no annotations): a call site that compiled against
// it compiles here without new nullable warnings.
#nullable disable
#pragma warning disable RS0041 // oblivious on purpose (above)
#pragma warning disable CA1716 // Get is EnyimMemcachedCore's name for it: call sites must keep compiling

namespace CacheSerializer.Enyim;

/// <summary>EnyimMemcachedCore's client interface (<c>Enyim.Caching.IMemcachedClient</c>, e383c4c) over this package's
/// client: the same methods, overloads, argument orders and result types, so an application's call sites compile
/// unchanged once its <c>using</c> lines name <c>CacheSerializer.Enyim</c>.</summary>
/// <remarks>
/// <para>Each method keeps EnyimMemcachedCore's semantics where a call site can see them (docs/migrating-from-enyim.md,
/// "Methods", lists each and the few differences): a read that misses or fails returns the default, a store of a null
/// value stores nothing and returns false, <c>Increment(key, defaultValue, delta)</c> creates a missing counter with
/// <c>defaultValue</c>, a <c>Cas</c> returns the item's new CAS token.</para>
/// <para>The synchronous methods need no thread-pool thread: the calling thread runs the call and is woken by its
/// connection's reader, so synchronous callers on a starved pool keep their throughput.</para>
/// </remarks>
public interface IMemcachedClient : IDisposable
{
    /// <summary>Raised when a server is marked down (on a thread-pool thread, after the client stopped sending to it).</summary>
    event Action<IMemcachedNode> NodeFailed;

    /// <summary>Stores a value only if the key does not exist; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    bool Add(string key, object value, int cacheSeconds);

    /// <summary>Stores a value only if the key does not exist; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    bool Add(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value only if the key does not exist; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored.</returns>
    bool Add(string key, object value, TimeSpan timeSpan);

    /// <summary>Stores a value only if the key does not exist; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> AddAsync(string key, object value, int cacheSeconds);

    /// <summary>Stores a value only if the key does not exist; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> AddAsync(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value only if the key does not exist; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> AddAsync(string key, object value, TimeSpan timeSpan);

    /// <summary>Stores a value; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    bool Set(string key, object value, int cacheSeconds);

    /// <summary>Stores a value; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    bool Set(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    bool Set(string key, object value, TimeSpan timeSpan);

    /// <summary>Stores a value; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    Task<bool> SetAsync(string key, object value, int cacheSeconds);

    /// <summary>Stores a value; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    Task<bool> SetAsync(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored; false for a null value or a failed server.</returns>
    Task<bool> SetAsync(string key, object value, TimeSpan timeSpan);

    /// <summary>Stores a value only if the key exists; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    bool Replace(string key, object value, int cacheSeconds);

    /// <summary>Stores a value only if the key exists; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    bool Replace(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value only if the key exists; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored.</returns>
    bool Replace(string key, object value, TimeSpan timeSpan);

    /// <summary>Stores a value only if the key exists; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> ReplaceAsync(string key, object value, int cacheSeconds);

    /// <summary>Stores a value only if the key exists; expires after <c>cacheSeconds</c> (0: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> ReplaceAsync(string key, object value, uint cacheSeconds);

    /// <summary>Stores a value only if the key exists; expires after <c>timeSpan</c> (zero: never).</summary>
    /// <returns>True when stored.</returns>
    Task<bool> ReplaceAsync(string key, object value, TimeSpan timeSpan);

    /// <summary>Reads a value as an object.</summary>
    /// <returns>A hit (<see cref="IOperationResult.Success"/>) with the value and its CAS token, or a miss.</returns>
    [Obsolete("Use GetAsync<T> instead")]
    Task<IGetOperationResult> GetAsync(string key);

    /// <summary>Reads a value.</summary>
    /// <returns>A hit (<see cref="IOperationResult.Success"/>) with the value and its CAS token, or a miss (status 1,
    /// "Not found"), or a failed server (no status, the exception).</returns>
    Task<IGetOperationResult<T>> GetAsync<T>(string key);

    /// <summary>Reads a value.</summary>
    /// <returns>The value; the default of <typeparamref name="T"/> on a miss or a failed server.</returns>
    Task<T> GetValueAsync<T>(string key);

    /// <summary>Reads a value; on a miss calls <c>generator</c> and adds its value (unless null) for <c>cacheSeconds</c>.</summary>
    /// <remarks>A plain get, then an add: no stampede protection (<c>IMemcachedClient.GetOrCreateAsync</c> of the core
    /// client has it, but its placeholder is read as a null hit by EnyimMemcachedCore during a switch).</remarks>
    /// <returns>The cached value on a hit, the generator's value otherwise.</returns>
    Task<T> GetValueOrCreateAsync<T>(string key, int cacheSeconds, Func<Task<T>> generator);

    /// <summary>Reads a value as an object.</summary>
    /// <returns>The value; null on a miss or a failed server.</returns>
    [Obsolete("Use Get<T> instead")]
    object Get(string key);

    /// <summary>Reads a value.</summary>
    /// <returns>The value; the default of <typeparamref name="T"/> on a miss or a failed server.</returns>
    T Get<T>(string key);

    /// <summary>Reads many keys, one pipelined batch per server.</summary>
    /// <returns>The hits, by key.</returns>
    IDictionary<string, T> Get<T>(IEnumerable<string> keys);

    /// <summary>Reads many keys, one pipelined batch per server.</summary>
    /// <returns>The hits, by key.</returns>
    Task<IDictionary<string, T>> GetAsync<T>(IEnumerable<string> keys);

    /// <summary>Reads a value as an object.</summary>
    /// <returns>True on a hit.</returns>
    [Obsolete("Use TryGet<T> instead")]
    bool TryGet(string key, out object value);

    /// <summary>Reads a value.</summary>
    /// <returns>True on a hit.</returns>
    bool TryGet<T>(string key, out T value);

    /// <summary>Reads a value as an object, with its CAS token.</summary>
    /// <returns>True on a hit.</returns>
    bool TryGetWithCas(string key, out CasResult<object> value);

    /// <summary>Reads a value with its CAS token.</summary>
    /// <returns>True on a hit.</returns>
    bool TryGetWithCas<T>(string key, out CasResult<T> value);

    /// <summary>Reads a value as an object, with its CAS token.</summary>
    /// <returns>The value and CAS token; null and 0 on a miss.</returns>
    CasResult<object> GetWithCas(string key);

    /// <summary>Reads a value with its CAS token.</summary>
    /// <returns>The value and CAS token; the default and 0 on a miss.</returns>
    CasResult<T> GetWithCas<T>(string key);

    /// <summary>Reads many keys with their CAS tokens.</summary>
    /// <returns>The hits, by key.</returns>
    IDictionary<string, CasResult<object>> GetWithCas(IEnumerable<string> keys);

    /// <summary>Reads many keys with their CAS tokens.</summary>
    /// <returns>The hits, by key.</returns>
    Task<IDictionary<string, CasResult<object>>> GetWithCasAsync(IEnumerable<string> keys);

    /// <summary>Appends bytes to an existing item's data.</summary>
    /// <returns>True when appended; false when the key is missing.</returns>
    bool Append(string key, ArraySegment<byte> data);

    /// <summary>Appends bytes to an existing item's data if its CAS token is still <c>cas</c>.</summary>
    /// <returns>Whether it was appended, and the new CAS token (the given one when it was not).</returns>
    CasResult<bool> Append(string key, ulong cas, ArraySegment<byte> data);

    /// <summary>Prepends bytes to an existing item's data.</summary>
    /// <returns>True when prepended; false when the key is missing.</returns>
    bool Prepend(string key, ArraySegment<byte> data);

    /// <summary>Prepends bytes to an existing item's data if its CAS token is still <c>cas</c>.</summary>
    /// <returns>Whether it was prepended, and the new CAS token (the given one when it was not).</returns>
    CasResult<bool> Prepend(string key, ulong cas, ArraySegment<byte> data);

    /// <summary>Stores a value that never expires, in the given mode.</summary>
    /// <returns>True when stored.</returns>
    bool Store(StoreMode mode, string key, object value);

    /// <summary>Stores a value that expires at <c>expiresAt</c> (<see cref="DateTime.MaxValue"/>: never), in the given mode.</summary>
    /// <returns>True when stored.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><c>expiresAt</c> is before 1970.</exception>
    bool Store(StoreMode mode, string key, object value, DateTime expiresAt);

    /// <summary>Stores a value that expires after <c>validFor</c> (zero or <see cref="TimeSpan.MaxValue"/>: never), in the given mode.</summary>
    /// <returns>True when stored.</returns>
    bool Store(StoreMode mode, string key, object value, TimeSpan validFor);

    /// <summary>Stores a value that expires at <c>expiresAt</c> (<see cref="DateTime.MaxValue"/>: never), in the given mode.</summary>
    /// <returns>True when stored.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><c>expiresAt</c> is before 1970.</exception>
    Task<bool> StoreAsync(StoreMode mode, string key, object value, DateTime expiresAt);

    /// <summary>Stores a value that expires after <c>validFor</c> (zero or <see cref="TimeSpan.MaxValue"/>: never), in the given mode.</summary>
    /// <returns>True when stored.</returns>
    Task<bool> StoreAsync(StoreMode mode, string key, object value, TimeSpan validFor);

    /// <summary>Stores a value that never expires, in the given mode, and returns its new CAS token.</summary>
    /// <returns>Whether it was stored, the new CAS token (0 when not), and the status code.</returns>
    CasResult<bool> Cas(StoreMode mode, string key, object value);

    /// <summary>Stores a value that never expires if its CAS token is still <c>cas</c> (0: no check), and returns the new one.</summary>
    /// <returns>Whether it was stored, the new CAS token (0 when not), and the status code (2: changed since, 1: gone).</returns>
    CasResult<bool> Cas(StoreMode mode, string key, object value, ulong cas);

    /// <summary>Stores a value that expires at <c>expiresAt</c> if its CAS token is still <c>cas</c> (0: no check), and returns the new one.</summary>
    /// <returns>Whether it was stored, the new CAS token (0 when not), and the status code (2: changed since, 1: gone).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><c>expiresAt</c> is before 1970.</exception>
    CasResult<bool> Cas(StoreMode mode, string key, object value, DateTime expiresAt, ulong cas);

    /// <summary>Stores a value that expires after <c>validFor</c> if its CAS token is still <c>cas</c> (0: no check), and returns the new one.</summary>
    /// <returns>Whether it was stored, the new CAS token (0 when not), and the status code (2: changed since, 1: gone).</returns>
    CasResult<bool> Cas(StoreMode mode, string key, object value, TimeSpan validFor, ulong cas);

    /// <summary>Subtracts <c>delta</c> from a counter (stopping at 0), creating a missing one with <c>defaultValue</c>.</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Decrement(string key, ulong defaultValue, ulong delta);

    /// <summary>Subtracts <c>delta</c> from a counter, creating a missing one with <c>defaultValue</c> that expires at <c>expiresAt</c>.</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Decrement(string key, ulong defaultValue, ulong delta, DateTime expiresAt);

    /// <summary>Subtracts <c>delta</c> from a counter, creating a missing one with <c>defaultValue</c> that expires after <c>validFor</c>.</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Decrement(string key, ulong defaultValue, ulong delta, TimeSpan validFor);

    /// <summary>Subtracts <c>delta</c> from a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, ulong cas);

    /// <summary>Subtracts <c>delta</c> from a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, DateTime expiresAt, ulong cas);

    /// <summary>Subtracts <c>delta</c> from a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Decrement(string key, ulong defaultValue, ulong delta, TimeSpan validFor, ulong cas);

    /// <summary>Adds <c>delta</c> to a counter (wrapping at 2^64), creating a missing one with <c>defaultValue</c>: note
    /// the order, default value first (the core client's <c>IncrementAsync(key, delta, initialValue)</c> has it last).</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Increment(string key, ulong defaultValue, ulong delta);

    /// <summary>Adds <c>delta</c> to a counter, creating a missing one with <c>defaultValue</c> that expires at <c>expiresAt</c>.</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Increment(string key, ulong defaultValue, ulong delta, DateTime expiresAt);

    /// <summary>Adds <c>delta</c> to a counter, creating a missing one with <c>defaultValue</c> that expires after <c>validFor</c>.</summary>
    /// <returns>The new value (<c>defaultValue</c> when created); 0 when the server failed.</returns>
    ulong Increment(string key, ulong defaultValue, ulong delta, TimeSpan validFor);

    /// <summary>Adds <c>delta</c> to a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, ulong cas);

    /// <summary>Adds <c>delta</c> to a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, DateTime expiresAt, ulong cas);

    /// <summary>Adds <c>delta</c> to a counter if its CAS token is still <c>cas</c>.</summary>
    /// <returns>The new value and CAS token; 0, 0 and status 2 when the token changed.</returns>
    CasResult<ulong> Increment(string key, ulong defaultValue, ulong delta, TimeSpan validFor, ulong cas);

    /// <summary>Sets an item's expiration to <c>expiresAt</c>.</summary>
    /// <returns>Success when the item exists; status 1 when it does not.</returns>
    Task<IOperationResult> TouchAsync(string key, DateTime expiresAt);

    /// <summary>Sets an item's expiration to <c>validFor</c> from now.</summary>
    /// <returns>Success when the item exists; status 1 when it does not.</returns>
    Task<IOperationResult> TouchAsync(string key, TimeSpan validFor);

    /// <summary>Deletes an item.</summary>
    /// <returns>True when it existed.</returns>
    bool Remove(string key);

    /// <summary>Deletes an item.</summary>
    /// <returns>True when it existed.</returns>
    Task<bool> RemoveAsync(string key);

    /// <summary>Deletes items, all at once.</summary>
    /// <returns>True when every one existed; false when one did not, or for no keys.</returns>
    Task<bool> RemoveMultiAsync(params string[] keys);

    /// <summary>Invalidates every item on every server.</summary>
    void FlushAll();

    /// <summary>Invalidates every item on every server.</summary>
    /// <returns>A task that completes when every server has answered.</returns>
    Task FlushAllAsync();

    /// <summary>Reads the general statistics of every server that answers.</summary>
    /// <returns>The statistics.</returns>
    ServerStats Stats();

    /// <summary>Reads a group of statistics (<c>settings</c>, <c>slabs</c>, <c>items</c>, ...; null: the general ones) of every server that answers.</summary>
    /// <returns>The statistics.</returns>
    ServerStats Stats(string type);
}
