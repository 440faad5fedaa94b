using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached.Internal.Hybrid;

// The distributed level (L2): GetOrCreateAsync's lease, whose read serves a hit as a plain read would (with the item's
// CAS token, which the strict mode keeps) and wins a miss in the same request; a plain read where the lease cannot be
// used (the flags), and to mark stale an entry the lease returned that a tag removal came after.
internal sealed partial class MemcachedHybridCache
{
    /// <summary>How many times a lease that returned an entry invalidated by a tag is tried again (each after marking that
    /// entry stale) before the factory runs here without storing.</summary>
    private const int LeaseAttempts = 2;

    /// <summary>The entry at L2 under <paramref name="key"/>: the call's key, or while its server is down its gutter key
    /// (<see cref="GutterFor"/>).</summary>
    private async Task<Made<T>> ReadThroughAsync<TState, T>(Call<TState, T> call, string key, CancellationToken cancellationToken)
    {
        bool read = !call.Has(HybridCacheEntryFlags.DisableDistributedCacheRead);
        bool write = !call.Has(HybridCacheEntryFlags.DisableDistributedCacheWrite);
        if (!read || !write || call.Has(HybridCacheEntryFlags.DisableUnderlyingData))
        {
            if (read && await TryDistributedAsync(call, key, cancellationToken).ConfigureAwait(false) is { } found)
            {
                return found;
            }

            return call.Has(HybridCacheEntryFlags.DisableUnderlyingData)
                ? new Made<T>(default!, null, 0)
                : await CreateAsync(call, store: write, cancellationToken).ConfigureAwait(false);
        }

        for (int attempt = 0; attempt < LeaseAttempts; attempt++)
        {
            if (await LeaseAsync(call, key, cancellationToken).ConfigureAwait(false) is { } leased)
            {
                return leased;
            }

            // Made by another caller and invalidated by a tag since: marked stale (or served, if it was replaced meanwhile
            // by a valid one), so that the next lease in the farm wins it.
            if (await TryDistributedAsync(call, key, cancellationToken).ConfigureAwait(false) is { } again)
            {
                return again;
            }
        }

        return await CreateAsync(call, store: false, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>A plain read of the entry: its value if it is readable and no tag removal came after it; for another
    /// build's entry, this build's copy beside it, while it is bound to that entry. An entry or copy that is not served
    /// is marked stale if it is still that version (<c>md I C&lt;cas&gt;</c>), so that one lease in the farm recreates
    /// it; another build's entry is left alone.</summary>
    private async Task<Made<T>?> TryDistributedAsync<TState, T>(Call<TState, T> call, string key, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = _engine.Key(key);
        GetReply reply = await ReadPlainAsync(encoded, cancellationToken).ConfigureAwait(false);
        if (!reply.Hit || reply.Stale)
        {
            return null; // a stale entry is the lease's to serve (its stale window) or recreate
        }

        if (call.Codec.TryRead(_engine, reply.Item, encoded, reply.Cas, reply.Ttl, out HybridEntry<T> entry, out TranscoderErrorKind reason))
        {
            return await ServedAsync(call, encoded, reply.Cas, entry, key != call.Key, cancellationToken).ConfigureAwait(false);
        }

        if (_engine.Reads.OtherBuildCas(reason, reply) is not (ulong otherBuild and not 0))
        {
            await MarkStaleAsync(encoded, reply.Cas, cancellationToken).ConfigureAwait(false);
            return null;
        }

        // Another build's entry: this build's copy stands in, and strict mode checks the entry it is bound to (any change
        // of that entry unbinds the copy).
        MemcachedKey copyKey = encoded.CopyFor(call.Codec.Build);
        GetReply copy = await ReadPlainAsync(copyKey, cancellationToken).ConfigureAwait(false);
        if (!copy.Hit || copy.Stale)
        {
            return null;
        }

        if (CopyFormat.TryUnwrap(copy.Item, otherBuild, out CacheItem copied) && call.Codec.TryRead(_engine, copied, copyKey, otherBuild, copy.Ttl, out entry, out _))
        {
            return await ServedAsync(call, copyKey, copy.Cas, entry, key != call.Key, cancellationToken).ConfigureAwait(false);
        }

        await MarkStaleAsync(copyKey, copy.Cas, cancellationToken).ConfigureAwait(false);
        return null;
    }

    /// <summary>Reads an entry or a copy with its CAS token and remaining TTL; a miss when memcached failed.</summary>
    private async Task<GetReply> ReadPlainAsync(MemcachedKey key, CancellationToken cancellationToken)
    {
        try
        {
            return await _engine.ExecuteAsync(key, GetRequest.GetWithTtl(key, pooled: false, _engine.GetRequests), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return default;
        }
    }

    /// <summary>A readable entry or copy read under <paramref name="cas"/>: served (L1 keeps the key's token) unless a tag
    /// removal came after it; then marked stale.</summary>
    private async Task<Made<T>?> ServedAsync<TState, T>(Call<TState, T> call, MemcachedKey key, ulong cas, HybridEntry<T> entry, bool fromGutter, CancellationToken cancellationToken)
    {
        HybridEnvelope envelope = entry.Envelope!;
        if (await _tags.IsValidAsync(envelope.Creation, envelope.Tags, _log.IsFresh, cancellationToken).ConfigureAwait(false))
        {
            return new Made<T>(entry.Value, envelope, entry.Cas, entry.Ttl, fromGutter);
        }

        await MarkStaleAsync(key, cas, cancellationToken).ConfigureAwait(false);
        return null;
    }

    /// <summary>Marks an entry or copy stale if it is still the version read (<c>md I C&lt;cas&gt;</c>).</summary>
    private async Task MarkStaleAsync(MemcachedKey key, ulong cas, CancellationToken cancellationToken)
    {
        try
        {
            await _engine.ExecuteAsync(key, KeyRequest.InvalidateKeepingTtl(key, cas), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            // The lease then polls until the entry expires or another server replaces it.
        }
    }

    /// <summary>The entry through <c>GetOrCreateAsync</c>'s lease: this process's single flight, one factory call per miss
    /// in the farm (per build: another build's entry is answered by this build's copy beside it), the fill bound to the
    /// CAS token it won. Null when the entry it returns was made by another caller and a tag removal came after it.</summary>
    private async Task<Made<T>?> LeaseAsync<TState, T>(Call<TState, T> call, string key, CancellationToken cancellationToken)
    {
        HybridEntry<T>? mine = null;
        HybridEntry<T> leased;
        try
        {
            leased = await _engine.Leases.GetOrCreateAsync(key, async token =>
            {
                // The key's server failed this read and is down now (its reads in flight fail together when it froze):
                // the farm's lease on the gutter makes the value once, where each web server would here.
                if (key == call.Key && GutterFor(key) is string gutter)
                {
                    throw new HomeDownException(gutter);
                }

                // The creation sequence is read before the factory: a tag removal made while it runs comes after it.
                ulong creation = await CreationAsync(call.Tags, token).ConfigureAwait(false);
                T value = await call.Factory(call.State, token).ConfigureAwait(false);
                HybridEnvelope envelope = call.Codec.Wrap(value, creation, call.Tags);
                if (!Fits(envelope))
                {
                    throw new PayloadTooLargeException(value);
                }

                mine = new HybridEntry<T>(value, envelope, 0);
                return mine;
            }, call.Entry.Lease, call.Codec, cancellationToken).ConfigureAwait(false);
        }
        catch (PayloadTooLargeException tooLarge)
        {
            return new Made<T>((T)tooLarge.Value!, null, 0);
        }
        catch (HomeDownException down)
        {
            return await LeaseAsync(call, down.Gutter, cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return await CreateAsync(call, store: false, cancellationToken).ConfigureAwait(false);
        }

        bool fromGutter = key != call.Key;
        if (ReferenceEquals(leased, mine))
        {
            return new Made<T>(leased.Value, leased.Envelope, 0, FromGutter: fromGutter);
        }

        return leased.Envelope is { } envelope
            && await _tags.IsValidAsync(envelope.Creation, envelope.Tags, _log.IsFresh, cancellationToken).ConfigureAwait(false)
            ? new Made<T>(leased.Value, envelope, leased.Cas, leased.Ttl, fromGutter)
            : null;
    }

    /// <summary>Runs the factory here, outside the lease (the flags forbid it, or memcached failed).</summary>
    private async Task<Made<T>> CreateAsync<TState, T>(Call<TState, T> call, bool store, CancellationToken cancellationToken)
    {
        ulong creation = await CreationAsync(call.Tags, cancellationToken).ConfigureAwait(false);
        T value = await call.Factory(call.State, cancellationToken).ConfigureAwait(false);
        HybridEnvelope envelope = call.Codec.Wrap(value, creation, call.Tags);
        if (!Fits(envelope))
        {
            return new Made<T>(value, null, 0);
        }

        if (store)
        {
            await StoreAsync(call.Key, envelope.ToBytes(), call.Entry.Expiration, cancellationToken).ConfigureAwait(false);
        }

        return new Made<T>(value, envelope, 0);
    }

    /// <summary>The key's server is down when its lease is to run the factory: thrown out of the lease (a win it holds is
    /// released) and caught to lease on the gutter instead.</summary>
    private sealed class HomeDownException(string gutter) : Exception("The key's memcached server is down.")
    {
        /// <summary>Gets the gutter key to lease on, as the lease found it (a second look could find the server back up,
        /// or the poller late, and let this exception reach the caller).</summary>
        internal string Gutter { get; } = gutter;
    }

    /// <summary>A value larger than <see cref="MemcachedHybridCacheOptions.MaximumPayloadBytes"/>: thrown out of the lease
    /// so that nothing is stored (the win is released), and caught to return the value.</summary>
    private sealed class PayloadTooLargeException(object? value) : Exception("The value is larger than MaximumPayloadBytes.")
    {
        internal object? Value { get; } = value;
    }
}
