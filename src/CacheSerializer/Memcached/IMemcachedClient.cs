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

    /// <summary>Reads a value; on a miss, creates it with <paramref name="factory"/>, stores it and returns it.</summary>
    /// <typeparam name="T">The value's type.</typeparam>
    /// <param name="key">The key.</param>
    /// <param name="expiration">The expiration of a created value; null or zero: never expires.</param>
    /// <param name="factory">Creates the value on a miss.</param>
    /// <param name="cancellationToken">Cancels the waits (not the factory, which receives it).</param>
    /// <returns>The cached or created value (created, when the server failed, under <see cref="ServerFailurePolicy.Miss"/>).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> or <paramref name="factory"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    /// <exception cref="MemcachedException">The server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    Task<T?> GetValueOrCreateAsync<T>(string key, TimeSpan? expiration, Func<CancellationToken, Task<T>> factory, CancellationToken cancellationToken = default);

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

    /// <summary>Stores a value only if the key does not exist.</summary>
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
