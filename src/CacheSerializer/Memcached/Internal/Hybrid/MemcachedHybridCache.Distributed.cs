using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached.Internal.Hybrid;

// The distributed level (L2): a plain read first (it gives the item's CAS token, which the strict mode keeps and which
// an entry invalidated by a tag is marked stale under), then GetOrCreateAsync's lease for a miss.
internal sealed partial class MemcachedHybridCache
{
    /// <summary>How many times a lease that returned an entry invalidated by a tag is tried again (each after marking that
    /// entry stale) before the factory runs here without storing.</summary>
    private const int LeaseAttempts = 2;

    private async Task<Made<T>> ReadThroughAsync<TState, T>(Call<TState, T> call, CancellationToken cancellationToken)
    {
        bool read = !call.Has(HybridCacheEntryFlags.DisableDistributedCacheRead);
        bool write = !call.Has(HybridCacheEntryFlags.DisableDistributedCacheWrite);
        if (read && await TryDistributedAsync(call, cancellationToken).ConfigureAwait(false) is { } found)
        {
            return found;
        }

        if (call.Has(HybridCacheEntryFlags.DisableUnderlyingData))
        {
            return new Made<T>(default!, null, 0);
        }

        if (read && write)
        {
            for (int attempt = 0; attempt < LeaseAttempts; attempt++)
            {
                if (await LeaseAsync(call, cancellationToken).ConfigureAwait(false) is { } leased)
                {
                    return leased;
                }

                if (await TryDistributedAsync(call, cancellationToken).ConfigureAwait(false) is { } again)
                {
                    return again;
                }
            }
        }

        return await CreateAsync(call, store: write && !read, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>A plain read of the entry: its value if it is readable and no tag removal came after it. An entry that is
    /// not is marked stale if it is still that version (<c>md I C&lt;cas&gt;</c>), so that one lease in the farm recreates it.</summary>
    private async Task<Made<T>?> TryDistributedAsync<TState, T>(Call<TState, T> call, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = _engine.Key(call.Key);
        GetReply reply;
        try
        {
            reply = await _engine.ExecuteAsync(encoded, GetRequest.Gets(encoded, pooled: false, _engine.GetRequests), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return null;
        }

        if (!reply.Hit || reply.Stale)
        {
            return null; // a stale entry is the lease's to serve (its stale window) or recreate
        }

        if (_engine.Items.TryRead(reply.Item, encoded, out byte[]? bytes)
            && HybridEnvelope.TryRead(bytes!, out HybridEnvelope envelope)
            && call.Codec.TryRead(envelope, out T value)
            && await _tags.IsValidAsync(envelope.Creation, envelope.Tags, _log.IsFresh, cancellationToken).ConfigureAwait(false))
        {
            return new Made<T>(value, envelope, reply.Cas);
        }

        try
        {
            await _engine.ExecuteAsync(encoded, KeyRequest.InvalidateKeepingTtl(encoded, reply.Cas), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            // The lease then polls until the entry expires or another server replaces it.
        }

        return null;
    }

    /// <summary>The entry through <c>GetOrCreateAsync</c>'s lease: this process's single flight, one factory call per miss
    /// in the farm, the fill bound to the CAS token it won. Null when the entry it returns was made by another caller and
    /// a tag removal came after it.</summary>
    private async Task<Made<T>?> LeaseAsync<TState, T>(Call<TState, T> call, CancellationToken cancellationToken)
    {
        var mine = new Created<T>();
        byte[] bytes;
        try
        {
            bytes = await _engine.Leases.GetOrCreateAsync<byte[]>(call.Key, async token =>
            {
                // The creation sequence is read before the factory: a tag removal made while it runs comes after it.
                ulong creation = _log.Seen;
                T value = await call.Factory(call.State, token).ConfigureAwait(false);
                HybridEnvelope envelope = call.Codec.Wrap(value, creation, call.Tags);
                if (!Fits(envelope))
                {
                    throw new PayloadTooLargeException(value);
                }

                mine.Set(value, envelope, envelope.ToBytes());
                return mine.Bytes!;
            }, call.Entry.Lease, cancellationToken).ConfigureAwait(false);
        }
        catch (PayloadTooLargeException tooLarge)
        {
            return new Made<T>((T)tooLarge.Value!, null, 0);
        }
        catch (MemcachedException)
        {
            return await CreateAsync(call, store: false, cancellationToken).ConfigureAwait(false);
        }

        if (mine.Bytes is not null && ReferenceEquals(mine.Bytes, bytes))
        {
            return new Made<T>(mine.Value, mine.Envelope, 0);
        }

        return HybridEnvelope.TryRead(bytes, out HybridEnvelope envelope)
            && call.Codec.TryRead(envelope, out T read)
            && await _tags.IsValidAsync(envelope.Creation, envelope.Tags, _log.IsFresh, cancellationToken).ConfigureAwait(false)
            ? new Made<T>(read, envelope, 0)
            : null;
    }

    /// <summary>Runs the factory here, outside the lease (the flags forbid it, or memcached failed).</summary>
    private async Task<Made<T>> CreateAsync<TState, T>(Call<TState, T> call, bool store, CancellationToken cancellationToken)
    {
        ulong creation = _log.Seen;
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

    /// <summary>What this caller's own factory made, when the lease ran it.</summary>
    private sealed class Created<T>
    {
        internal T Value { get; private set; } = default!;

        internal HybridEnvelope? Envelope { get; private set; }

        internal byte[]? Bytes { get; private set; }

        internal void Set(T value, HybridEnvelope envelope, byte[] bytes)
        {
            Value = value;
            Envelope = envelope;
            Bytes = bytes;
        }
    }

    /// <summary>A value larger than <see cref="MemcachedHybridCacheOptions.MaximumPayloadBytes"/>: thrown out of the lease
    /// so that nothing is stored (the win is released), and caught to return the value.</summary>
    private sealed class PayloadTooLargeException(object? value) : Exception("The value is larger than MaximumPayloadBytes.")
    {
        internal object? Value { get; } = value;
    }
}
