using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

// The migration phase from EnyimMemcachedCore (docs/client.md, "In the migration phase"): its applications read the value
// key with the binary protocol's get and DefaultTranscoder, which takes a placeholder (0 bytes, flags 0) for a hit whose
// value is null, and an item marked stale for a fresh one (cnblogs/EnyimMemcachedCore at e383c4c,
// src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs, Deserialize). So the value key only ever holds values:
// the lease of a miss is a placeholder on the key's lease key beside it (MemcachedKey.LeaseFor), which no old application
// reads, and an invalidation deletes the value.
internal sealed partial class Leases
{
    /// <summary>The shared call on a value key in the migration phase: the value key read (with <c>R</c>, never
    /// <c>N</c>); on a miss, or an item this build cannot read, the lease key leased (<c>N</c>), its winner running the
    /// factory while the farm's other callers poll the value key.</summary>
    private async Task<Loaded<T>> LoadBesideAsync<T>(MemcachedKey key, Call<T> call, CancellationToken token)
    {
        MemcachedKey leaseKey = key.LeaseFor();
        long start = Stopwatch.GetTimestamp();
        TimeSpan pause = FirstPause;
        while (true)
        {
            call.Round.Decide();
            var read = GetRequest.Refresh(key, call.Policy.RecacheSeconds, pooled: false, engine.GetRequests);
            GetReply reply = await engine.ExecuteValueAsync(engine.Locate(key), read, token).ConfigureAwait(false);
            _flipSeen |= SawFlip(reply);

            // The version of an unreadable item the fill replaces (and only it: ms C), 0 for a miss (the fill adds).
            (Task<Loaded<T>>? served, ulong replaces) = Serve(key, call, reply, token);
            if (served is not null)
            {
                return await served.ConfigureAwait(false);
            }

            // A placeholder under the key is a flipped server's lease (during the flip): its value comes there.
            if (!reply.IsPlaceholder && await LeaseBesideAsync(key, leaseKey, replaces, call, token).ConfigureAwait(false) is Loaded<T> loaded)
            {
                return loaded;
            }

            // Another caller holds the lease: poll the value key until it is stored, for at most LockTimeout.
            TimeSpan waited = Stopwatch.GetElapsedTime(start);
            if (waited >= call.Policy.LockTimeout)
            {
                return await CreateBesideAsync(key, leaseKey, leaseCas: 0, replaces, call, "lock_timeout", token).ConfigureAwait(false);
            }

            TimeSpan left = call.Policy.LockTimeout - waited;
            await Task.Delay(pause < left ? pause : left, token).ConfigureAwait(false);
            pause = pause * 2 < MaxPause ? pause * 2 : MaxPause;
        }
    }

    /// <summary>Leases the lease key after a read of the value key found nothing to serve: the winner reads the key
    /// again, then runs the factory; null when another caller holds the lease (poll).</summary>
    private async Task<Loaded<T>?> LeaseBesideAsync<T>(MemcachedKey key, MemcachedKey leaseKey, ulong replaces, Call<T> call, CancellationToken token)
    {
        var leaseRead = GetRequest.Lease(leaseKey, call.Policy.LockSeconds, recacheTtl: 0, pooled: false, engine.GetRequests);
        GetReply lease = await engine.ExecuteValueAsync(engine.Locate(leaseKey), leaseRead, token).ConfigureAwait(false);
        if (lease.Won)
        {
            // Read again: the caller that held the lease before may have stored the value and released the lease between
            // this call's read of the key and its lease (it stores first), and that value stands.
            var again = GetRequest.Refresh(key, recacheTtl: 0, pooled: false, engine.GetRequests);
            GetReply reply = await engine.ExecuteValueAsync(engine.Locate(key), again, token).ConfigureAwait(false);
            (Task<Loaded<T>>? served, replaces) = Serve(key, call, reply, token);
            if (served is not null)
            {
                await engine.Wins.ReleaseAsync(leaseKey, lease.Cas, placeholder: true).ConfigureAwait(false);
                return await served.ConfigureAwait(false);
            }

            return await CreateBesideAsync(key, leaseKey, lease.Cas, replaces, call, "won", token).ConfigureAwait(false);
        }

        // No placeholder could be made (the server failed under ServerFailurePolicy.Miss, or had no memory for one).
        return lease.IsPlaceholder ? null : await CreateBesideAsync(key, leaseKey, leaseCas: 0, replaces, call, "unprotected", token).ConfigureAwait(false);
    }

    /// <summary>Whether a read of a value key found what only a server already flipped to protobuf writes there: its
    /// placeholder, or an object in this package's own built-in format (0xC5xx, which no EnyimMemcachedCore reader
    /// reads; this phase writes objects as the old applications do, and application codecs use 0xC6xx). The flip starts
    /// when no old application is left, so from then on the placeholder under the key, which any delete removes, is
    /// safe; the lease beside it is not enough then: a flipped server's <c>DeleteAsync</c> of a key that holds nothing
    /// leaves no trace, and the fill in flight would add a value loaded before it.</summary>
    private static bool SawFlip(in GetReply reply) =>
        reply.IsPlaceholder || (reply.Hit && (reply.Item.Flags & 0xFF00) == 0xC500);

    /// <summary>What a read of the value key serves: its value (refreshed in the background when the read won its
    /// early-refresh window), or this build's copy of another build's item; else null and the CAS token of the item
    /// the fill may replace (an item this build cannot read; 0 for a miss).</summary>
    private (Task<Loaded<T>>? Served, ulong Replaces) Serve<T>(MemcachedKey key, Call<T> call, in GetReply reply, CancellationToken token)
    {
        if (!reply.Hit)
        {
            return (null, 0);
        }

        var valueLease = new Lease(key, BoundTo: 0);
        bool readable = TryReadLeased(valueLease, call.Format, reply, out T value, out CacheItem item, out TranscoderErrorKind reason);

        // Marked stale by a server already flipped to protobuf (InvalidateAsync after the flip; no old application is left
        // by then): served inside a stale window, as after the flip; else replaced as an unreadable item is.
        if (readable && reply.Stale && !call.Policy.ServesStale)
        {
            return (null, reply.Cas);
        }

        if (readable)
        {
            // Its early-refresh window (R): refreshed with ms C, which a delete or a store since makes lose.
            if (reply.Won)
            {
                StartRefresh(valueLease, call, reply.Cas);
            }

            return (Task.FromResult(new Loaded<T>(value, item)), 0);
        }

        // Another build's item: its copy beside it is leased as it is after the flip (no old reader reads copies). A win
        // this read carried lapses with the item.
        return engine.Reads.OtherBuildCas(reason, reply) is ulong otherBuild and not 0
            ? (LoadAsync(new Lease(key.CopyFor(call.Format.Build), otherBuild), call, token), 0)
            : (null, reply.Cas);
    }

    /// <summary>Runs the factory in the caller's flight and stores its value under the value key
    /// (<see cref="FillBesideAsync"/>). A factory, serializer or store that throws releases the lease first, so the next
    /// get wins at once.</summary>
    private Task<Loaded<T>> CreateBesideAsync<T>(MemcachedKey key, MemcachedKey leaseKey, ulong leaseCas, ulong replaces, Call<T> call, string reason, CancellationToken token) =>
        RunFactoryAsync(key, call, reason, item => FillBesideAsync(key, leaseKey, leaseCas, replaces, item, call.Policy, token), new Win(leaseKey, leaseCas, Placeholder: true), token);

    /// <summary>Stores a created value: only while the lease is still this caller's (<see cref="InvalidateBesideAsync"/>
    /// deletes it, and a lease outlived by the factory has expired), as an add, so that a value stored meanwhile (an old
    /// application's set included) wins, or replacing only the unreadable version read (<c>ms C</c>), which a delete
    /// since makes lose too; then releases the lease. Without a lease (none could be made, or the wait timed out) the
    /// value is added as it is.</summary>
    /// <remarks>The check, the store and the release are three requests on two keys, which memcached cannot make one: an
    /// invalidation completing between the check and the store finds no value to delete. The release then finds the
    /// lease gone, and the value is deleted again; in between, for one round trip, it can be read.</remarks>
    private async Task FillBesideAsync(MemcachedKey key, MemcachedKey leaseKey, ulong leaseCas, ulong replaces, CacheItem item, EntryPolicy policy, CancellationToken token)
    {
        if (leaseCas != 0)
        {
            GetReply held = await engine.ExecuteValueAsync(engine.Locate(leaseKey), GetRequest.Gets(leaseKey, pooled: false, engine.GetRequests), token).ConfigureAwait(false);
            if (held.Cas != leaseCas)
            {
                return; // invalidated while the factory ran: its value may predate the update, so the callers get it and nothing is stored
            }
        }

        MemcachedStoreResult stored = await engine.StoreAsync(replaces == 0 ? StoreMode.Add : StoreMode.Set, key, item, policy.StoredFor, replaces, token).ConfigureAwait(false);
        if (leaseCas != 0
            && !await engine.ExecuteAsync(leaseKey, KeyRequest.Delete(leaseKey, leaseCas), token).ConfigureAwait(false)
            && stored == MemcachedStoreResult.Stored)
        {
            await engine.ExecuteAsync(key, KeyRequest.Delete(key), token).ConfigureAwait(false);
        }
    }

    /// <summary><c>InvalidateAsync</c> in the migration phase: deletes the lease key, so that a fill in flight stores
    /// nothing (<see cref="FillBesideAsync"/>), then the value, which no item marked stale may replace while old
    /// applications read it. The next caller wins a miss. True when the value existed.</summary>
    private async Task<bool> InvalidateBesideAsync(MemcachedKey key, CancellationToken token)
    {
        MemcachedKey leaseKey = key.LeaseFor();
        _ = await engine.ExecuteAsync(leaseKey, KeyRequest.Delete(leaseKey), token).ConfigureAwait(false);
        return await engine.ExecuteAsync(key, KeyRequest.Delete(key), token).ConfigureAwait(false);
    }
}
