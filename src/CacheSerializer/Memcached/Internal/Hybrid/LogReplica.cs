using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>One copy of the invalidation log on one memcached server (docs/format.md, "HybridCache entries"): its
/// counter, its ring of items, and how far this process has read it.</summary>
/// <remarks>
/// <para>The <b>primary</b> is the log of earlier builds, which keep reading and writing it during a deploy: counter
/// <c>hc:seq</c>, ring <c>hc:log:&lt;n mod 1024&gt;</c>, on the counter's server; its positions are the farm's
/// sequences (an entry's creation, a tag's removal). An item there is the sequence (8 bytes), the kind byte and the name.</para>
/// <para>A <b>mirror</b> (issue 44: two more servers when there are three or more) has a counter <c>hc:mirror:seq</c>
/// and ring <c>hc:mirror:&lt;n mod 1024&gt;</c> of its own; its positions are its own, and an item there is the
/// position (8 bytes), the kind byte, the primary's sequence for a tag (8 bytes; 0 for a key) and the name.</para>
/// <para>Kinds: <c>t</c> a tag; a key whose entry and gutter copy were deleted (<c>g</c>), or not its entry (<c>H</c>),
/// not its gutter copy (<c>M</c>), neither (<c>N</c>); builds before the gutter write <c>k</c> and <c>K</c>
/// (docs/format.md, "HybridCache entries").</para>
/// </remarks>
internal sealed class LogReplica(MemcachedEngine engine, MemcachedNode node, bool primary)
{
    /// <summary>The ring's size: a reader further behind drops its whole L1.</summary>
    internal const int RingSize = 1024;

    internal const string PrimaryCounter = "hc:seq";

    private const string MirrorCounter = "hc:mirror:seq";

    private long _seen;
    private long _lastCompleteStart;
    private long _stalledSince;
    private int _failing;

    internal MemcachedNode Node => node;

    /// <summary>Gets the last position whose item (and every one before) this process has applied; 0 before the first read.</summary>
    internal ulong Seen => (ulong)Volatile.Read(ref _seen);

    /// <summary>Gets when (<see cref="Stopwatch"/>) the last complete read of this copy started: one that read its counter
    /// and applied every item up to it; 0 before the first.</summary>
    internal long LastCompleteStart => Volatile.Read(ref _lastCompleteStart);

    /// <summary>Gets a value indicating whether the last read failed (the server is down, refused or timed out).</summary>
    internal bool Failing => Volatile.Read(ref _failing) != 0;

    /// <summary>The counter's first value when it is missing: the current Unix time in microseconds, so that it never
    /// moves back after memcached restarts (a farm would need a million removals a second to outrun it).</summary>
    internal static ulong NowMicroseconds => (ulong)((DateTime.UtcNow - DateTime.UnixEpoch).Ticks / 10);

    /// <summary>Reads the counter (<c>ma</c> by 0, created at the current time when missing); null when the server failed
    /// under <see cref="ServerFailurePolicy.Miss"/>.</summary>
    internal Task<ulong?> ReadCounterAsync(CancellationToken cancellationToken) => CounterAsync(0, cancellationToken);

    /// <summary>Takes the next position; null when the server failed under <see cref="ServerFailurePolicy.Miss"/>.</summary>
    internal Task<ulong?> NextAsync(CancellationToken cancellationToken) => CounterAsync(1, cancellationToken);

    /// <summary>Writes item <paramref name="position"/>: a key or tag <paramref name="name"/> of <paramref name="kind"/>,
    /// with the primary's <paramref name="sequence"/> on a mirror. True when memcached took it.</summary>
    internal async Task<bool> WriteAsync(ulong position, byte kind, ulong sequence, string name, CancellationToken cancellationToken)
    {
        byte[] bytes = new byte[HeadLength + Encoding.UTF8.GetByteCount(name)];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, position);
        bytes[sizeof(ulong)] = kind;
        if (!primary)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(sizeof(ulong) + 1), sequence);
        }

        Encoding.UTF8.GetBytes(name, bytes.AsSpan(HeadLength));
        MemcachedKey slot = SlotKey(position);
        CacheItem item = new(0, bytes);
        Task<MemcachedStoreResult> stored = engine.ExecuteAsync(node, new StoreRequest(slot, StoreMode.Set, item, null, 0), cancellationToken);
        if (primary && engine.Locate(slot) is var placed && placed != node)
        {
            // Also where builds before issue 44 read it, while both may share the cache during a deploy: best effort.
            Connections.BackgroundTask.ObserveFailure(engine.ExecuteAsync(placed, new StoreRequest(slot, StoreMode.Set, item, null, 0), cancellationToken));
        }

        return await stored.ConfigureAwait(false) == MemcachedStoreResult.Stored;
    }

    /// <summary>One read of this copy: its counter, then every item since <see cref="Seen"/> in one pipelined batch,
    /// each applied with <paramref name="apply"/> (kind, the primary's sequence, name). A counter that moved back
    /// (memcached restarted or was flushed), a reader more than the ring behind, and an item missing for
    /// <paramref name="stallLimit"/> call <paramref name="dropAll"/>: nothing this process holds can be trusted.</summary>
    internal async Task PollAsync(Action<byte, ulong, string> apply, Action dropAll, TimeSpan stallLimit, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        ulong? read;
        try
        {
            read = await ReadCounterAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            Volatile.Write(ref _failing, 1);
            throw;
        }

        if (read is not ulong latest)
        {
            Volatile.Write(ref _failing, 1);
            return;
        }

        Volatile.Write(ref _failing, 0);
        ulong seen = Seen;
        if (seen == 0 || latest < seen || latest - seen > RingSize)
        {
            DropAll(dropAll, latest, start);
            return;
        }

        int count = (int)(latest - seen);
        var reads = new Task<GetReply>[count];
        for (int i = 0; i < count; i++)
        {
            reads[i] = ReadSlotAsync(seen + 1 + (ulong)i, cancellationToken);
        }

        await Task.WhenAll(reads).ConfigureAwait(false);
        for (int i = 0; i < count; i++)
        {
            ulong n = seen + 1 + (ulong)i;
            if (!TryParse(await reads[i].ConfigureAwait(false), n, out byte kind, out ulong sequence, out string name))
            {
                long since = Volatile.Read(ref _stalledSince);
                if (since == 0)
                {
                    Volatile.Write(ref _stalledSince, Stopwatch.GetTimestamp());
                }
                else if (Stopwatch.GetElapsedTime(since) >= stallLimit)
                {
                    Hybrid.InvalidationLog.LogItemLost(engine.Logger, node.Name, n);
                    DropAll(dropAll, latest, start);
                }

                return; // stopped there until the next read
            }

            apply(kind, sequence, name);
            Volatile.Write(ref _seen, (long)n);
        }

        Volatile.Write(ref _stalledSince, 0);
        Volatile.Write(ref _lastCompleteStart, start);
    }

    private void DropAll(Action dropAll, ulong latest, long start)
    {
        dropAll();
        Volatile.Write(ref _seen, (long)latest);
        Volatile.Write(ref _stalledSince, 0);
        Volatile.Write(ref _lastCompleteStart, start);
    }

    /// <summary>Reads the primary's counter where it lives (<c>ma</c> by 0, created at the current time when missing),
    /// without a reader of it: for an entry's creation and a tag's record made anew.</summary>
    internal static Task<ulong?> ReadPrimaryCounterAsync(MemcachedEngine engine, CancellationToken cancellationToken)
    {
        MemcachedKey counter = engine.Key(PrimaryCounter);
        return CounterAsync(engine, engine.Home(counter), counter, 0, cancellationToken);
    }

    private Task<ulong?> CounterAsync(ulong delta, CancellationToken cancellationToken) =>
        CounterAsync(engine, node, engine.Key(primary ? PrimaryCounter : MirrorCounter), delta, cancellationToken);

    private static Task<ulong?> CounterAsync(MemcachedEngine engine, MemcachedNode node, in MemcachedKey counter, ulong delta, CancellationToken cancellationToken) =>
        engine.ExecuteAsync(node, new ArithmeticRequest(counter, false, delta, NowMicroseconds, null), cancellationToken);

    /// <summary>Gets the length of an item before its name: position, kind, and on a mirror the primary's sequence.</summary>
    private int HeadLength => primary ? sizeof(ulong) + 1 : sizeof(ulong) + 1 + sizeof(ulong);

    private MemcachedKey SlotKey(ulong position) =>
        engine.Key((primary ? "hc:log:" : "hc:mirror:") + (position % RingSize).ToString(System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>Reads slot <paramref name="n"/> here; on the primary, where it does not hold item <paramref name="n"/>
    /// and the slot's key hashes to another server, there too (an item a build before issue 44 wrote), whose failure
    /// reads as a miss.</summary>
    private async Task<GetReply> ReadSlotAsync(ulong n, CancellationToken cancellationToken)
    {
        MemcachedKey slot = SlotKey(n);
        GetReply reply = await engine.ExecuteAsync(node, GetRequest.Checked(slot, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        if (!primary || engine.Locate(slot) is var placed && placed == node || TryParse(reply, n, out _, out _, out _))
        {
            return reply;
        }

        try
        {
            return await engine.ExecuteAsync(placed, GetRequest.Checked(slot, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return reply;
        }
    }

    /// <summary>Reads item <paramref name="n"/> from a slot's reply; false when the slot does not hold it (not written
    /// yet, evicted, or an older item of the ring).</summary>
    private bool TryParse(in GetReply reply, ulong n, out byte kind, out ulong sequence, out string name)
    {
        kind = 0;
        sequence = 0;
        name = string.Empty;
        if (!reply.Hit || reply.Item.Data.Count < HeadLength || BinaryPrimitives.ReadUInt64LittleEndian(reply.Item.Data) != n)
        {
            return false;
        }

        ReadOnlySpan<byte> item = reply.Item.Data;
        kind = item[sizeof(ulong)];
        sequence = primary ? n : BinaryPrimitives.ReadUInt64LittleEndian(item[(sizeof(ulong) + 1)..]);
        name = Encoding.UTF8.GetString(item[HeadLength..]);
        return true;
    }
}
