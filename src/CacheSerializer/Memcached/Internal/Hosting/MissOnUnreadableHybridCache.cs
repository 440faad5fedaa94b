using CacheSerializer.Memcached.Internal.Protocol;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>The application's HybridCache, with an entry the transcoder cannot read (<see cref="UnreadableHybridCacheEntryException"/>)
/// read as a miss: the call is made again with local and distributed reads off, so the factory runs and its value
/// replaces the entry in both levels.</summary>
/// <remarks>
/// Why a wrapper: HybridCache 10.x gives a serializer no way to report a miss. When one throws, the caller gets the
/// exception (and HybridCache logs "Cache deserialization failure" with it); for a mutable type (any class not sealed and
/// marked <c>[ImmutableObject(true)]</c>) the entry is already in the local cache, so every call throws until it expires
/// there, even after the distributed entry is replaced
/// (<c>HybridCache_SerializerThrowsOnRead_TheCallerGetsTheExceptionAndAMutableTypesLocalEntryKeepsThrowing</c>).
/// Everything else is passed on as it is; a call that finds a readable entry costs nothing more.
/// </remarks>
internal sealed class MissOnUnreadableHybridCache(HybridCache inner) : HybridCache
{
    private const HybridCacheEntryFlags NoReads = HybridCacheEntryFlags.DisableLocalCacheRead | HybridCacheEntryFlags.DisableDistributedCacheRead;

    /// <summary>Gets the wrapped HybridCache (for tests).</summary>
    internal HybridCache Inner => inner;

    public override ValueTask<T> GetOrCreateAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory,
        HybridCacheEntryOptions? options = null, IEnumerable<string>? tags = null, CancellationToken cancellationToken = default)
    {
        ValueTask<T> pending;
        try
        {
            pending = inner.GetOrCreateAsync(key, state, factory, options, tags, cancellationToken);
        }
        catch (UnreadableHybridCacheEntryException)
        {
            // A local hit is read on the caller's thread, so its failure is thrown rather than returned.
            return CreateAsync(key, state, factory, options, tags, cancellationToken);
        }

        return pending.IsCompletedSuccessfully ? pending : MissOnUnreadableAsync(pending, key, state, factory, options, tags, cancellationToken);
    }

    public override ValueTask<T> GetOrCreateAsync<TState, T>(ReadOnlySpan<char> key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory,
        HybridCacheEntryOptions? options = null, IEnumerable<string>? tags = null, CancellationToken cancellationToken = default)
    {
        // The span overload spares a string on a local hit; the key becomes one only for a call that has to wait.
        ValueTask<T> pending;
        try
        {
            pending = inner.GetOrCreateAsync(key, state, factory, options, tags, cancellationToken);
        }
        catch (UnreadableHybridCacheEntryException)
        {
            return CreateAsync(key.ToString(), state, factory, options, tags, cancellationToken);
        }

        return pending.IsCompletedSuccessfully ? pending : MissOnUnreadableAsync(pending, key.ToString(), state, factory, options, tags, cancellationToken);
    }

    public override ValueTask SetAsync<T>(string key, T value, HybridCacheEntryOptions? options = null, IEnumerable<string>? tags = null, CancellationToken cancellationToken = default) =>
        inner.SetAsync(key, value, options, tags, cancellationToken);

    public override ValueTask RemoveAsync(string key, CancellationToken cancellationToken = default) => inner.RemoveAsync(key, cancellationToken);

    public override ValueTask RemoveAsync(IEnumerable<string> keys, CancellationToken cancellationToken = default) => inner.RemoveAsync(keys, cancellationToken);

    public override ValueTask RemoveByTagAsync(string tag, CancellationToken cancellationToken = default) => inner.RemoveByTagAsync(tag, cancellationToken);

    public override ValueTask RemoveByTagAsync(IEnumerable<string> tags, CancellationToken cancellationToken = default) => inner.RemoveByTagAsync(tags, cancellationToken);

    private async ValueTask<T> MissOnUnreadableAsync<TState, T>(ValueTask<T> pending, string key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory,
        HybridCacheEntryOptions? options, IEnumerable<string>? tags, CancellationToken cancellationToken)
    {
        try
        {
            return await pending.ConfigureAwait(false);
        }
        catch (UnreadableHybridCacheEntryException)
        {
            return await CreateAsync(key, state, factory, options, tags, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>The call again with local and distributed reads off: the factory runs and its value replaces the entry
    /// in both levels. The entry was already logged and counted by the serializer; concurrent callers of the key that
    /// failed the same way make this same call, which HybridCache runs once in this process.</summary>
    private ValueTask<T> CreateAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory,
        HybridCacheEntryOptions? options, IEnumerable<string>? tags, CancellationToken cancellationToken)
    {
        var fresh = new HybridCacheEntryOptions
        {
            Expiration = options?.Expiration,
            LocalCacheExpiration = options?.LocalCacheExpiration,
            Flags = (options?.Flags ?? HybridCacheEntryFlags.None) | NoReads,
        };
        return inner.GetOrCreateAsync(key, state, factory, fresh, tags, cancellationToken);
    }
}
