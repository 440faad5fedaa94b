namespace CacheSerializer.Memcached;

/// <summary>The calls an application makes on a memcached cache; <see cref="MemcachedClient"/> implements it and
/// <c>AddMemcached</c> registers it, so code that caches can be tested against a fake.</summary>
/// <remarks>
/// Under the default <see cref="ServerFailurePolicy.Miss"/> a server failure never throws: reads miss, stores return
/// <see cref="MemcachedStoreResult.ServerFailure"/>, deletes and touches return false, counters return null (see
/// <see cref="MemcachedClientOptions.OnServerFailure"/> and docs/client.md, "Failure policy").
/// </remarks>
public interface IMemcachedClient
{
    /// <summary>Reads a value.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value, or a miss (also when the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    Task<MemcachedGetResult<T>> GetAsync<T>(string key, CancellationToken cancellationToken = default);

    /// <summary>Reads a value, or the default of <typeparamref name="T"/> on a miss (EnyimMemcachedCore's <c>GetValueAsync</c>).</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The value, or default on a miss; use <see cref="GetAsync{T}"/> to tell a stored default from a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    Task<T?> GetValueAsync<T>(string key, CancellationToken cancellationToken = default);

    /// <summary>Reads a value; on a miss, exactly one caller in the whole farm runs <paramref name="factory"/> and stores
    /// its value while the others wait for it (stampede protection), and an entry in its early-refresh or
    /// stale-while-revalidate window is returned at once while one caller refreshes it in the background.</summary>
    /// <remarks>
    /// <para>Concurrent callers for one key (and <typeparamref name="T"/>) in this process share one call; a caller that
    /// joined a call gets its own copy of the value unless the type is immutable (a string, a value type without
    /// references, a sealed type marked <c>[ImmutableObject(true)]</c>). Across
    /// processes, memcached 1.6's recache flags pick the one caller (docs/client.md, "GetOrCreateAsync"): a miss leaves
    /// an empty placeholder that the others see (every read of this client reads it as a miss); they poll for the value
    /// for up to <see cref="GetOrCreateOptions.LockTimeout"/>, then run the factory themselves rather than fail.</para>
    /// <para>A factory that throws (or a value that cannot be stored) fails this call and the callers sharing it, and
    /// releases the win at once: the next call tries again. A caller that dies holding the win delays the others by at
    /// most <see cref="GetOrCreateOptions.LockTimeout"/>. When the server fails, under <see cref="ServerFailurePolicy.Miss"/>
    /// the factory's value is returned (one factory call per key and process at a time).</para>
    /// <para>A background refresh (early refresh, stale-while-revalidate) runs after the call has returned, with a
    /// token cancelled when the client is disposed and without the caller's ExecutionContext: its factory must not use
    /// request-scoped services. If it fails, it is logged and the current value stays until its entry expires.</para>
    /// </remarks>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="factory">Creates the value; it receives a token cancelled when every caller waiting for it has
    /// cancelled (or, for a background refresh, when the client is disposed).</param>
    /// <param name="options">Expiration, early refresh, stale-while-revalidate window and lock timeout; null properties
    /// (or null) take <see cref="MemcachedClientOptions.GetOrCreate"/>.</param>
    /// <param name="cancellationToken">Ends this caller's wait; the shared call goes on for the other callers.</param>
    /// <returns>The cached value (possibly stale, within its stale-while-revalidate window) or the created one.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> or <paramref name="factory"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A property of <paramref name="options"/> is out of range.</exception>
    /// <exception cref="MemcachedException">The value is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot store the created value or read the stored one.</exception>
    /// <exception cref="ObjectDisposedException">The client is disposed.</exception>
    Task<T> GetOrCreateAsync<T>(string key, Func<CancellationToken, Task<T>> factory, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default);

    /// <summary>Marks an entry stale instead of deleting it (<c>md &lt;key&gt; I T&lt;ttl&gt;</c>): the next
    /// <see cref="GetOrCreateAsync{T}"/> caller in the farm recreates it, and meanwhile the others get the stale value
    /// at once (with a <see cref="GetOrCreateOptions.StaleWhileRevalidate"/> window) or wait for the new one (without),
    /// instead of a stampede of misses.</summary>
    /// <remarks>The stale entry is kept for the stale window (or, without one, for the lock timeout), whatever its TTL
    /// was. Plain reads (<see cref="GetAsync{T}"/>) still return the stale value.</remarks>
    /// <param name="key">The key.</param>
    /// <param name="options">The entry's options (its <see cref="GetOrCreateOptions.StaleWhileRevalidate"/> and
    /// <see cref="GetOrCreateOptions.LockTimeout"/>); null properties (or null) take <see cref="MemcachedClientOptions.GetOrCreate"/>.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the invalidation may still happen).</param>
    /// <returns>True when the entry was marked stale; false when it did not exist (or the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A property of <paramref name="options"/> is out of range.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<bool> InvalidateAsync(string key, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default);

    /// <summary>Reads a value with its CAS token, for a later <see cref="CasAsync{T}"/>.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value and its CAS token, or a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken = default);

    /// <summary>Reads a value and sets its expiration in the same command.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The new expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>A hit with the value, or a miss.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read the stored item as a <typeparamref name="T"/>.</exception>
    Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken = default);

    /// <summary>Reads many keys: one pipelined batch per server, all servers at once.</summary>
    /// <typeparam name="T">The expected type of the values.</typeparam>
    /// <param name="keys">The keys; duplicates are read once.</param>
    /// <param name="cancellationToken">Cancels the wait; the connections stay in step.</param>
    /// <returns>The hits, by key; a missing key (or, under <see cref="ServerFailurePolicy.Miss"/>, a key of a failed server) is absent.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="keys"/> or one of its keys is null.</exception>
    /// <exception cref="MemcachedException">A server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read a stored item as a <typeparamref name="T"/>.</exception>
    Task<IReadOnlyDictionary<string, T?>> GetManyAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken = default);

    /// <summary>Stores a value whether or not the key exists.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires. Beyond 2038-01-19 (memcached's
    /// 32-bit clock) the item expires then.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, or <see cref="MemcachedStoreResult.ServerFailure"/> when the
    /// server failed under <see cref="ServerFailurePolicy.Miss"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot store the value.</exception>
    Task<MemcachedStoreResult> SetAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Stores a value only if the key does not exist: the fill of cache-aside, after a miss of
    /// <see cref="GetAsync{T}"/> (an update's write is <see cref="SetAsync{T}"/> or <see cref="DeleteAsync"/>).</summary>
    /// <remarks>When that miss was an item of another build (another contract of <typeparamref name="T"/>, or a type
    /// this build does not know), the value is stored beside the item as this build's copy, bound to it, and
    /// <see cref="MemcachedStoreResult.Stored"/> is returned: both builds then keep hitting during a rolling deploy, and
    /// any delete or overwrite of the key invalidates the copy (docs/client.md, "Rolling deploys").</remarks>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.NotStored"/> when the key
    /// exists, or <see cref="MemcachedStoreResult.ServerFailure"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot store the value.</exception>
    Task<MemcachedStoreResult> AddAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Stores a value only if the key exists.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.NotStored"/> when the key is
    /// missing, or <see cref="MemcachedStoreResult.ServerFailure"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot store the value.</exception>
    Task<MemcachedStoreResult> ReplaceAsync<T>(string key, T value, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Appends raw bytes to an existing item's data (its flags and expiration are kept).</summary>
    /// <param name="key">The key.</param>
    /// <param name="data">The bytes to append.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the append may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.NotStored"/> when the key is
    /// missing, or <see cref="MemcachedStoreResult.ServerFailure"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The data is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<MemcachedStoreResult> AppendAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default);

    /// <summary>Prepends raw bytes to an existing item's data (its flags and expiration are kept).</summary>
    /// <param name="key">The key.</param>
    /// <param name="data">The bytes to prepend.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the prepend may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.NotStored"/> when the key is
    /// missing, or <see cref="MemcachedStoreResult.ServerFailure"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The data is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<MemcachedStoreResult> PrependAsync(string key, ArraySegment<byte> data, CancellationToken cancellationToken = default);

    /// <summary>Stores a value only if the item's CAS token still equals <paramref name="cas"/> (compare-and-swap).</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="value">The value, serialized by the transcoder.</param>
    /// <param name="cas">The CAS token from <see cref="GetWithCasAsync{T}"/>; must not be 0.</param>
    /// <param name="expiration">Expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the store may still happen).</param>
    /// <returns><see cref="MemcachedStoreResult.Stored"/>, <see cref="MemcachedStoreResult.Exists"/> (changed since),
    /// <see cref="MemcachedStoreResult.NotFound"/>, or <see cref="MemcachedStoreResult.ServerFailure"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="cas"/> is 0 or <paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The value is too large, the server answered with an error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot store the value.</exception>
    Task<MemcachedStoreResult> CasAsync<T>(string key, T value, ulong cas, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Deletes an item.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step (the delete may still happen).</param>
    /// <returns>True when the item was deleted; false when it did not exist (or the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<bool> DeleteAsync(string key, CancellationToken cancellationToken = default);

    /// <summary>Sets an item's expiration without reading it.</summary>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The new expiration from now; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>True when the item exists and was touched; false when it did not exist (or the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken = default);

    /// <summary>Adds <paramref name="delta"/> to a counter (a decimal number stored as text), wrapping at 2^64.</summary>
    /// <param name="key">The key.</param>
    /// <param name="delta">The amount to add.</param>
    /// <param name="initialValue">The value to create the counter with when it is missing; null to leave a missing counter missing.</param>
    /// <param name="expiration">The expiration of a counter created on a miss; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The new value; null when the counter is missing and no initial value was given (or the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The item is not a number (CLIENT_ERROR), the server answered with another error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<ulong?> IncrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Subtracts <paramref name="delta"/> from a counter, stopping at 0.</summary>
    /// <param name="key">The key.</param>
    /// <param name="delta">The amount to subtract.</param>
    /// <param name="initialValue">The value to create the counter with when it is missing; null to leave a missing counter missing.</param>
    /// <param name="expiration">The expiration of a counter created on a miss; null or zero: never expires.</param>
    /// <param name="cancellationToken">Cancels the wait; the connection stays in step.</param>
    /// <returns>The new value; null when the counter is missing and no initial value was given (or the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The item is not a number (CLIENT_ERROR), the server answered with another error, or it failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<ulong?> DecrementAsync(string key, ulong delta = 1, ulong? initialValue = null, TimeSpan? expiration = null, CancellationToken cancellationToken = default);

    /// <summary>Invalidates every item on every server (<c>flush_all</c>).</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when every server has answered.</returns>
    /// <exception cref="MemcachedException">A server failed or answered with an error: always thrown, whatever
    /// <see cref="MemcachedClientOptions.OnServerFailure"/> says, since a flush that did not happen must be known.</exception>
    Task FlushAllAsync(CancellationToken cancellationToken = default);
}
