using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>One factory call per expiry across the farm: in-process single flight, then memcached's recache flags
/// (docs/client.md, "GetOrCreateAsync").</summary>
/// <remarks>
/// The read is <c>mg &lt;key&gt; N&lt;lock&gt; [R&lt;window&gt;] v f c</c>. memcached 1.6.18 then answers exactly one
/// get in the farm with <c>W</c> (won) for each miss (it creates an empty placeholder), for each entry whose TTL fell
/// below <c>R</c>, and for each entry marked stale; every other get sees <c>Z</c> until the item is stored again. The
/// winner of a miss runs the factory while the others poll; the winner of an entry that still has a value returns it
/// and refreshes it in the background while the others return it too. What runs the factory and stores its value is in
/// Leases.Create.cs.
/// </remarks>
internal sealed partial class Leases(MemcachedEngine engine)
{
    /// <summary>The first pause of a caller waiting for another's factory; it doubles up to <see cref="MaxPause"/>.
    /// Only one caller per process and key polls (the others wait for it in <see cref="FlightTable"/>).</summary>
    private static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(5);

    private static readonly TimeSpan MaxPause = TimeSpan.FromMilliseconds(100);

    private readonly FlightTable _flights = new();

    /// <summary>Set once a read in the migration phase found what only a flipped server leaves under a value key
    /// (Leases.Beside.cs, <see cref="SawFlip"/>): from then on this client leases on the key itself.</summary>
    private volatile bool _flipSeen;

    /// <summary>Gets how many calls are running in this process (for tests).</summary>
    internal int FlightCount => _flights.Count;

    /// <summary>Joins or starts the call the callers of one key share in this process. The caller that started it gets
    /// the value it produced; a caller that joined gets its own copy (deserialized from the same bytes) unless the type
    /// is immutable, so no two requests ever hold one mutable object (HybridCache does the same).</summary>
    /// <param name="key">The caller's key.</param>
    /// <param name="factory">What makes the value on a miss.</param>
    /// <param name="policy">The entry's policy.</param>
    /// <param name="format">How the entry holds its value (<see cref="EntryFormat{T}.Transcoded"/> for <c>GetOrCreateAsync</c>).</param>
    /// <param name="cancellationToken">The caller's cancellation.</param>
    internal async Task<T> GetOrCreateAsync<T>(string key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, EntryFormat<T> format, CancellationToken cancellationToken)
    {
        (Loaded<T> loaded, bool joined) = await _flights.RunAsync(key, (Leases: this, Key: key, Factory: factory, Policy: policy, Format: format),
            static (state, round, token) => state.Leases.LoadAsync(state.Key, new Call<T>(state.Factory, state.Policy, round, state.Format), token),
            cancellationToken).ConfigureAwait(false);
        return joined ? format.ForJoined(engine, loaded.Value, loaded.Item) : loaded.Value;
    }

    /// <summary>Marks a key's entry stale (<c>md I</c>) for the policy's stale window: the next get in the farm wins it.
    /// In the migration phase, deletes it instead (<see cref="InvalidateBesideAsync"/>).</summary>
    internal Task<bool> InvalidateAsync(string key, EntryPolicy policy, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = engine.Key(key);
        return engine.Settings.MigrationPhase
            ? InvalidateBesideAsync(encoded, cancellationToken)
            : engine.ExecuteAsync(encoded, KeyRequest.Invalidate(encoded, policy.InvalidatedSeconds), cancellationToken);
    }

    /// <summary>The shared call on a caller's key: leased on the key itself, or in the migration phase, until a flipped
    /// server's item is seen, on the key's lease key beside it (Leases.Beside.cs).</summary>
    private Task<Loaded<T>> LoadAsync<T>(string key, Call<T> call, CancellationToken token) => engine.Settings.MigrationPhase && !_flipSeen
        ? LoadBesideAsync(engine.Key(key), call, token)
        : LoadAsync(new Lease(engine.Key(key), BoundTo: 0), call, token);

    /// <summary>The shared call on a lease's key: the key itself, or this build's copy of a key whose item another build
    /// wrote (docs/client.md, "Rolling deploys"), which the farm's callers of this build lease and fill as they would the key.</summary>
    /// <remarks>Each read of the key and each factory run is reported to the call's round as a step that decides the
    /// result (callers of the process that arrive later wait for the next round); a read of the copy is not: what it
    /// finds stands only as long as the read of the key before it.</remarks>
    private async Task<Loaded<T>> LoadAsync<T>(Lease lease, Call<T> call, CancellationToken token)
    {
        long start = Stopwatch.GetTimestamp();
        TimeSpan pause = FirstPause;
        ulong invalidated = 0;
        while (true)
        {
            // Located on every round: with auto-eject the key may have moved to another server meanwhile.
            // Not pooled: the bytes stay with the result, for the copies of the callers that joined.
            var read = GetRequest.Lease(lease.Key, call.Policy.LockSeconds, call.Policy.RecacheSeconds, pooled: false, engine.GetRequests);
            if (!lease.IsCopy)
            {
                call.Round.Decide();
            }

            GetReply reply = await engine.ExecuteValueAsync(engine.Locate(lease.Key), read, token).ConfigureAwait(false);
            bool unreadable = false;
            Task<Loaded<T>>? decided = reply.Hit ? DecideHit(lease, call, reply, out unreadable, token) : DecideMiss(lease, call, reply, token);
            if (decided is not null)
            {
                return await decided.ConfigureAwait(false);
            }

            if (unreadable)
            {
                invalidated = await InvalidateUnreadableAsync(lease.Key, reply, invalidated, token).ConfigureAwait(false);
            }

            // Another caller (here or on another server) is creating the value: poll until it is stored, for at most
            // LockTimeout, then create it here rather than fail.
            TimeSpan waited = Stopwatch.GetElapsedTime(start);
            if (waited >= call.Policy.LockTimeout)
            {
                return await CreateAsync(lease, call, cas: 0, placeholder: false, "lock_timeout", token).ConfigureAwait(false);
            }

            TimeSpan left = call.Policy.LockTimeout - waited;
            await Task.Delay(pause < left ? pause : left, token).ConfigureAwait(false);
            pause = pause * 2 < MaxPause ? pause * 2 : MaxPause;
        }
    }

    /// <summary>What a lease's hit decides: the value, a factory run, this build's copy instead; null to poll (another
    /// caller is creating it), with <paramref name="unreadable"/> set when the item could not be read.</summary>
    private Task<Loaded<T>>? DecideHit<T>(Lease lease, Call<T> call, in GetReply reply, out bool unreadable, CancellationToken token)
    {
        unreadable = !TryReadLeased(lease, call.Format, reply, out T value, out CacheItem item, out TranscoderErrorKind reason);
        if (!unreadable)
        {
            if (!reply.Stale || call.Policy.ServesStale)
            {
                // Fresh, in its early-refresh or stale window, or invalidated with a stale window: served now. The one
                // caller that won (W) refreshes it behind the scenes; the others (Z) leave it to that caller.
                if (reply.Won)
                {
                    StartRefresh(lease, call, reply.Cas);
                }

                return Task.FromResult(new Loaded<T>(value, item));
            }

            // Invalidated, and this entry serves no stale value: the winner creates it now; the others wait for it.
            return reply.Won ? CreateAsync(lease, call, reply.Cas, placeholder: false, "won", token) : null;
        }

        // Another build's item: this build's copy beside it stands in, leased and filled by this build's callers.
        if (!lease.IsCopy && engine.Reads.OtherBuildCas(reason, reply) is ulong otherBuild and not 0)
        {
            return LoadCopyAsync(lease, call, reply, otherBuild, token);
        }

        // An item this build cannot read (another build's contract, corrupt...) is a miss, and the farm keeps one factory
        // call for it: the caller that holds its win replaces it with a CAS store, as a stale entry's winner does.
        return reply.Won ? CreateAsync(lease, call, reply.Cas, placeholder: false, "won", token) : null;
    }

    /// <summary>What a lease's miss decides: a factory run (this get created the placeholder, or none could be made);
    /// null to poll (another caller holds the placeholder).</summary>
    private Task<Loaded<T>>? DecideMiss<T>(Lease lease, Call<T> call, in GetReply reply, CancellationToken token) =>
        reply.Won ? CreateAsync(lease, call, reply.Cas, placeholder: true, "won", token)

        // A miss without a placeholder: the server failed (ServerFailurePolicy.Miss) or had no memory for one.
        : !reply.IsPlaceholder ? CreateAsync(lease, call, cas: 0, placeholder: false, "unprotected", token)
        : null;

    /// <summary>Leases this build's copy of a key whose item another build wrote under CAS <paramref name="otherBuild"/>.
    /// A win the read of the key carried is the other build's (its early refresh): handed back, never used.</summary>
    private Task<Loaded<T>> LoadCopyAsync<T>(Lease lease, Call<T> call, GetReply reply, ulong otherBuild, CancellationToken token)
    {
        if (reply.Won)
        {
            engine.Wins.Return(lease.Key, reply.Cas);
        }

        return LoadAsync(new Lease(lease.Key.CopyFor(call.Format.Build), otherBuild), call, token);
    }

    /// <summary>A fresh unreadable entry gives no win: it is marked stale if it is still this version
    /// (<c>md I C&lt;cas&gt;</c>), so that the next get in the farm wins it (this caller's next poll, unless another
    /// caller is faster) and the others poll. An entry that is stale or whose win went to another caller (<c>Z</c>) has a
    /// winner: nothing to do. Returns the CAS token marked last.</summary>
    private async Task<ulong> InvalidateUnreadableAsync(MemcachedKey key, GetReply reply, ulong invalidated, CancellationToken token)
    {
        if (reply.Stale || (reply.Recache & RecacheFlags.WinSent) != 0 || reply.Cas == invalidated)
        {
            return invalidated;
        }

        await engine.ExecuteValueAsync(engine.Locate(key), KeyRequest.InvalidateKeepingTtl(key, reply.Cas), token).ConfigureAwait(false);
        return reply.Cas;
    }

    /// <summary>Deserializes a value read by a lease; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>
    /// (never deleted here: the caller replaces it). Under <see cref="UnreadableItemPolicy.Throw"/> a win the read
    /// carried is handed back before the exception reaches the callers, so that another caller can try.</summary>
    /// <remarks>A build copy reads only while it is bound to that item of its key; one bound to an item since replaced
    /// reads as an unreadable item (without being counted as one), which its winner replaces.</remarks>
    private bool TryReadLeased<T>(Lease lease, EntryFormat<T> format, in GetReply reply, out T value, out CacheItem read, out TranscoderErrorKind reason)
    {
        read = reply.Item;
        if (lease.IsCopy && !CopyFormat.TryUnwrap(reply.Item, lease.BoundTo, out read))
        {
            value = default!;
            reason = TranscoderErrorKind.Other;
            return false;
        }

        try
        {
            return format.TryRead(engine, read, lease.Key, lease.IsCopy ? lease.BoundTo : reply.Cas, reply.Ttl, out value, out reason);
        }
        catch when (reply.Won)
        {
            // In the migration phase a win on an item not marked stale is an early refresh's: handing it back would mark
            // the value stale, which an EnyimMemcachedCore reader takes for fresh; it lapses with the item instead.
            if (reply.Stale || !engine.Settings.MigrationPhase)
            {
                engine.Wins.Return(lease.Key, reply.Cas);
            }

            throw;
        }
    }

    /// <summary>What a lease reads and fills: a key (<see cref="BoundTo"/> 0), or this build's copy of a key whose item
    /// another build wrote under CAS token <see cref="BoundTo"/>.</summary>
    private readonly record struct Lease(MemcachedKey Key, ulong BoundTo)
    {
        internal bool IsCopy => BoundTo != 0;

        /// <summary>The item a fill stores: the value's own, or wrapped as a copy bound to the other build's item.</summary>
        internal CacheItem Stored(CacheItem item) => IsCopy ? CopyFormat.Wrap(BoundTo, item) : item;
    }

    /// <summary>What the callers of one key in this process share: the factory, the entry's policy, the flight's round and
    /// how the entry holds its value.</summary>
    private readonly record struct Call<T>(Func<CancellationToken, Task<T>> Factory, EntryPolicy Policy, FlightRound Round, EntryFormat<T> Format);

    /// <summary>A value and the item it was read from or stored as.</summary>
    private readonly record struct Loaded<T>(T Value, CacheItem Item);
}
