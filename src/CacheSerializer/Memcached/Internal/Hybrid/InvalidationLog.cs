using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The farm-wide invalidation log in memcached (docs/hybrid.md, "L1 coherence without Redis: the invalidation log"): the counter
/// <c>hc:seq</c> and the ring <c>hc:log:&lt;n mod 1024&gt;</c>. A removal appends to it; this process's poller reads
/// it on a thread of its own every half bound and applies what it finds to the L1 and the tag table.</summary>
/// <remarks>
/// A log item is the 8-byte sequence it was written under (so a ring slot still holding an older item is told apart),
/// a kind byte (<c>k</c> a key, <c>K</c> a key whose server did not take the change, <c>t</c> a tag; a build that knows
/// only <c>k</c> and <c>t</c> reads <c>K</c> as <c>k</c>) and the name in UTF-8. A poll is complete when it read <c>hc:seq</c> and
/// applied every item up to it; <see cref="IsFresh"/> tells whether the last complete poll started within the bound.
/// </remarks>
internal sealed partial class InvalidationLog : IDisposable
{
    /// <summary>The ring's size: a poller further behind drops its whole L1.</summary>
    internal const int RingSize = 1024;

    internal const string SequenceKey = "hc:seq";

    private readonly MemcachedEngine _engine;
    private readonly LocalCache _local;
    private readonly TagTable _tags;
    private readonly TimeSpan _bound;
    private readonly TimeSpan _interval;
    private readonly TimeSpan _stallLimit;
    private readonly Thread _thread;
    private readonly ManualResetEventSlim _stopping = new();
    private readonly Func<CancellationToken, Task> _afterCompletePoll;
    private readonly Action<string> _missed;
    private long _seen;
    private long _lastCompleteStart;
    private long _stalledSince;
    private long _outageSince;
    private long _allReadAt;
    private int _polls;

    /// <param name="engine">The client's engine.</param>
    /// <param name="local">The L1 the log's items drop copies from.</param>
    /// <param name="tags">The tag table the log's items record removals in.</param>
    /// <param name="bound">The invalidation bound; the poller runs every half of it.</param>
    /// <param name="afterCompletePoll">Runs on the poller's thread after each complete poll (the pending changes made again).</param>
    /// <param name="missed">Told each key that a log item names as removed where its server did not take the delete
    /// (kept pending here too: <see cref="PendingChanges"/>).</param>
    internal InvalidationLog(MemcachedEngine engine, LocalCache local, TagTable tags, TimeSpan bound, Func<CancellationToken, Task> afterCompletePoll, Action<string> missed)
    {
        _missed = missed;
        _afterCompletePoll = afterCompletePoll;
        _engine = engine;
        _local = local;
        _tags = tags;
        _bound = bound;
        _interval = bound / 2;

        // A log item that stays missing (its writer crashed between ma and the write, or memcached evicted it) stops
        // the poller for at most this long; then the poller drops its whole L1 and moves on.
        _stallLimit = TimeSpan.FromTicks(Math.Max(TimeSpan.FromSeconds(1).Ticks, _interval.Ticks * 20));
        _thread = new Thread(Run) { IsBackground = true, Name = "CacheSerializer HybridCache poller" };
        _thread.Start();
    }

    /// <summary>Gets the last sequence whose log items (and every one before) this process has applied; 0 before the first poll.</summary>
    internal ulong Seen => (ulong)Volatile.Read(ref _seen);

    /// <summary>The creation sequence of an entry made now (docs/hybrid.md, "Tags"): <see cref="Seen"/> once a poll
    /// completed; before the first one, the counter itself (one request), which every removal that began before it is at
    /// or below, so that an entry made in a server's first moments is not judged older than every removal ever made
    /// (with <c>*</c> once removed, it would be refused everywhere); 0 when the counter cannot be read (older than any
    /// removal: refused where a tag of it or <c>*</c> was ever removed, never served stale).</summary>
    internal ValueTask<ulong> CreationAsync(CancellationToken cancellationToken)
    {
        ulong seen = Seen;
        return seen != 0 ? ValueTask.FromResult(seen) : new ValueTask<ulong>(CounterOrSeenAsync(cancellationToken));
    }

    private async Task<ulong> CounterOrSeenAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await ReadCounterAsync(_engine, cancellationToken).ConfigureAwait(false) ?? Seen;
        }
        catch (MemcachedException)
        {
            return Seen;
        }
    }

    /// <summary>Reads <c>hc:seq</c> (<c>ma</c> by 0, created at the current time when missing); null when its server
    /// failed under <see cref="ServerFailurePolicy.Miss"/>.</summary>
    internal static Task<ulong?> ReadCounterAsync(MemcachedEngine engine, CancellationToken cancellationToken)
    {
        MemcachedKey sequenceKey = engine.Key(SequenceKey);
        return engine.ExecuteAsync(sequenceKey, new ArithmeticRequest(sequenceKey, false, 0, (ulong)NowMicroseconds, null), cancellationToken);
    }

    /// <summary>Gets a value indicating whether the last complete poll started less than the bound ago.</summary>
    internal bool IsFresh
    {
        get
        {
            long start = Volatile.Read(ref _lastCompleteStart);
            return start != 0 && Stopwatch.GetElapsedTime(start) < _bound;
        }
    }

    /// <summary>Gets a value indicating whether the log could not be read since the last complete poll: memcached (the
    /// counter's server) is down, refused or timed out. The first complete poll after it drops the whole L1.</summary>
    internal bool InOutage => Volatile.Read(ref _outageSince) != 0;

    /// <summary>Gets how many complete polls ran (for tests).</summary>
    internal int CompletePolls => Volatile.Read(ref _polls);

    /// <summary>The counter's first value when it is missing: the current Unix time in microseconds, so that it never
    /// moves back after memcached restarts (a farm would need a million removals a second to outrun it).</summary>
    private static long NowMicroseconds => (DateTime.UtcNow - DateTime.UnixEpoch).Ticks / 10;

    /// <summary>Takes the next sequence and writes its log item: a key removed, or a tag (then also <c>hc:tag:&lt;tag&gt;</c>,
    /// before the log item, so a process that reads the tag after the item exists gets it). Returns 0 when memcached
    /// could not be written.</summary>
    /// <param name="tag">A tag removed (else a key).</param>
    /// <param name="name">The key or tag.</param>
    /// <param name="missed">A key whose server did not take its delete or store: its item says so (<c>K</c>), so that
    /// every server keeps the delete pending.</param>
    /// <param name="cancellationToken">The call's token.</param>
    internal async Task<ulong> AppendAsync(bool tag, string name, bool missed, CancellationToken cancellationToken)
    {
        ulong? next = await _engine.ArithmeticAsync(SequenceKey, decrement: false, 1, (ulong)NowMicroseconds, null, cancellationToken).ConfigureAwait(false);
        if (next is not ulong n)
        {
            return 0;
        }

        if (tag)
        {
            if (await _engine.StoreAsync(StoreMode.Set, TagTable.KeyOf(name), TagTable.RecordItem(n), null, 0, cancellationToken).ConfigureAwait(false) != MemcachedStoreResult.Stored)
            {
                return 0;
            }
        }

        byte[] item = new byte[sizeof(ulong) + 1 + Encoding.UTF8.GetByteCount(name)];
        BinaryPrimitives.WriteUInt64LittleEndian(item, n);
        item[sizeof(ulong)] = tag ? (byte)'t' : missed ? (byte)'K' : (byte)'k';
        Encoding.UTF8.GetBytes(name, item.AsSpan(sizeof(ulong) + 1));
        MemcachedKey slot = _engine.Key(SlotKey(n));
        CacheItem logItem = new(0, item);
        (MemcachedNode logs, MemcachedNode placed) = NodesOf(slot);
        Task<MemcachedStoreResult> stored = _engine.ExecuteAsync(logs, new StoreRequest(slot, StoreMode.Set, logItem, null, 0), cancellationToken);
        if (placed != logs)
        {
            // Also where earlier builds (before issue 44) read it, while both may share the cache during a deploy: best effort.
            BackgroundTask.ObserveFailure(_engine.ExecuteAsync(placed, new StoreRequest(slot, StoreMode.Set, logItem, null, 0), cancellationToken));
        }

        return await stored.ConfigureAwait(false) == MemcachedStoreResult.Stored ? n : 0;
    }

    /// <summary>The server of the log (the counter's, which holds every slot too, so that the log depends on that one
    /// server instead of every server a slot's key would hash to: issue 44), and the server the slot's key hashes to.</summary>
    private (MemcachedNode Logs, MemcachedNode Placed) NodesOf(in MemcachedKey slot) => (_engine.Locate(_engine.Key(SequenceKey)), _engine.Locate(slot));

    public void Dispose()
    {
        _stopping.Set();
        if (Thread.CurrentThread != _thread)
        {
            _thread.Join();
        }

        _stopping.Dispose();
    }

    private static string SlotKey(ulong n) => "hc:log:" + (n % RingSize).ToString(System.Globalization.CultureInfo.InvariantCulture);

    private void Run()
    {
        while (!_stopping.IsSet)
        {
            long start = Stopwatch.GetTimestamp();
            try
            {
                if (SyncCall.Run(() => PollAsync(_engine.Lifetime)))
                {
                    Volatile.Write(ref _lastCompleteStart, start);
                    Interlocked.Increment(ref _polls);
                    ReadAllRemovedAtNowAndThen(); // after the stamp: its server may not be the log's, and may be slow
                    SyncCall.Run(() => _afterCompletePoll(_engine.Lifetime));
                }
            }
            catch (MemcachedException) when (!_engine.IsDisposed)
            {
                EnterOutage(); // not complete: L1 reads fall through to memcached, or are served as the options say
            }
            catch (Exception ex) when (ex is MemcachedException or OperationCanceledException or ObjectDisposedException)
            {
                if (_engine.IsDisposed)
                {
                    return;
                }
            }
            catch (Exception ex)
            {
                LogPollFailed(_engine.Logger, ex);
            }

            TimeSpan left = _interval - Stopwatch.GetElapsedTime(start);
            if (left > TimeSpan.Zero)
            {
                _stopping.Wait(left);
            }
        }
    }

    /// <summary>Reads <c>*</c>'s record when it is not known here and once a second: every entry is judged by it, and a
    /// record read that often stays at the head of memcached's LRU, as the counter does (its loss would cost every entry
    /// made before it a miss: <see cref="TagTable"/>).</summary>
    private void ReadAllRemovedAtNowAndThen()
    {
        if (_tags.KnowsAll && Stopwatch.GetElapsedTime(_allReadAt) < TimeSpan.FromSeconds(1))
        {
            return;
        }

        _allReadAt = Stopwatch.GetTimestamp();
        SyncCall.Run(() => _tags.ReadAsync(TagTable.All, _engine.Lifetime));
    }

    /// <summary>One poll; true when complete.</summary>
    private async Task<bool> PollAsync(CancellationToken cancellationToken)
    {
        if (await ReadCounterAsync(_engine, cancellationToken).ConfigureAwait(false) is not ulong latest)
        {
            EnterOutage(); // the counter's server failed (ServerFailurePolicy.Miss)
            return false;
        }

        if (Volatile.Read(ref _outageSince) is long since and not 0)
        {
            // Removals made while the log could not be read were not logged (their writers failed as this poller did):
            // no copy this process holds can be trusted, nor the tags it knows.
            DropAll(latest);
            Volatile.Write(ref _outageSince, 0);
            long milliseconds = (long)Stopwatch.GetElapsedTime(since).TotalMilliseconds;
            LogOutageEnded(_engine.Logger, milliseconds);
            return true;
        }

        ulong seen = Seen;
        if (seen == 0 || latest < seen || latest - seen > RingSize)
        {
            // The first poll, a counter that moved back (memcached restarted or was flushed) or a poller too far behind:
            // nothing this process holds can be trusted any more.
            DropAll(latest);
            return true;
        }

        if (latest == seen)
        {
            return true;
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
            if (!TryApply(await reads[i].ConfigureAwait(false), n))
            {
                return Stall(n, latest);
            }

            Volatile.Write(ref _seen, (long)n);
        }

        Volatile.Write(ref _stalledSince, 0);
        return true;
    }

    /// <summary>Reads slot <paramref name="n"/> on the log's server; where it does not hold item <paramref name="n"/> and
    /// the slot's key hashes to another server, there too (an item an earlier build wrote, before issue 44, while both
    /// share the cache), whose failure reads as a miss: only the log's server failing is an outage.</summary>
    private async Task<GetReply> ReadSlotAsync(ulong n, CancellationToken cancellationToken)
    {
        MemcachedKey slot = _engine.Key(SlotKey(n));
        (MemcachedNode logs, MemcachedNode placed) = NodesOf(slot);
        GetReply reply = await _engine.ExecuteAsync(logs, GetRequest.Checked(slot, _engine.GetRequests), cancellationToken).ConfigureAwait(false);
        if (Holds(reply, n) || placed == logs)
        {
            return reply;
        }

        try
        {
            return await _engine.ExecuteAsync(placed, GetRequest.Checked(slot, _engine.GetRequests), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return reply;
        }
    }

    private static bool Holds(in GetReply reply, ulong n) =>
        reply.Hit && reply.Item.Data.Count > sizeof(ulong) && BinaryPrimitives.ReadUInt64LittleEndian(reply.Item.Data) == n;

    /// <summary>Applies log item <paramref name="n"/>; false when its slot does not hold it yet.</summary>
    private bool TryApply(GetReply reply, ulong n)
    {
        if (!Holds(reply, n))
        {
            return false;
        }

        ReadOnlySpan<byte> item = reply.Item.Data;

        string name = Encoding.UTF8.GetString(item[(sizeof(ulong) + 1)..]);
        if (item[sizeof(ulong)] == (byte)'t')
        {
            _tags.Record(name, n);
        }
        else
        {
            _local.Drop(name, n);
            if (item[sizeof(ulong)] == (byte)'K')
            {
                _missed(name); // its server may still hold the old value: deleted by whichever server reaches it first
            }
        }

        return true;
    }

    /// <summary>Item <paramref name="n"/> is not written yet: the poll stops there, until it has been missing too long.</summary>
    private bool Stall(ulong n, ulong latest)
    {
        long since = Volatile.Read(ref _stalledSince);
        if (since == 0)
        {
            Volatile.Write(ref _stalledSince, Stopwatch.GetTimestamp());
            return false;
        }

        if (Stopwatch.GetElapsedTime(since) < _stallLimit)
        {
            return false;
        }

        LogItemLost(_engine.Logger, n);
        DropAll(latest);
        return true;
    }

    private void EnterOutage()
    {
        if (Interlocked.CompareExchange(ref _outageSince, Stopwatch.GetTimestamp(), 0) == 0)
        {
            LogOutageBegan(_engine.Logger);
        }
    }

    private void DropAll(ulong latest)
    {
        _local.Clear(latest);
        _tags.Clear();
        Volatile.Write(ref _seen, (long)latest);
        Volatile.Write(ref _stalledSince, 0);
    }

    [LoggerMessage(EventId = 40, Level = LogLevel.Warning, Message = "memcached HybridCache: the invalidation log's item {Sequence} stayed missing (its writer stopped, or memcached evicted it); this server dropped its whole L1 and moved on")]
    private static partial void LogItemLost(ILogger logger, ulong sequence);

    [LoggerMessage(EventId = 44, Level = LogLevel.Warning, Message = "memcached HybridCache: the invalidation log cannot be read (memcached is down or not answering); L1 copies are served as ServeL1DuringOutage says until it answers")]
    private static partial void LogOutageBegan(ILogger logger);

    [LoggerMessage(EventId = 45, Level = LogLevel.Information, Message = "memcached HybridCache: the invalidation log is read again after {Milliseconds} ms; this server dropped its whole L1 (removals made meanwhile were not logged)")]
    private static partial void LogOutageEnded(ILogger logger, long milliseconds);

    [LoggerMessage(EventId = 41, Level = LogLevel.Error, Message = "memcached HybridCache: a poll of the invalidation log failed; L1 reads fall through to memcached until one completes")]
    private static partial void LogPollFailed(ILogger logger, Exception exception);
}
