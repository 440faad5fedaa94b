using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The farm-wide invalidation log in memcached (docs/hybrid.md, "L1 coherence without Redis: the invalidation
/// log"): a removal appends to it; this process reads it every half bound and applies what it finds to the L1 and the
/// tag table.</summary>
/// <remarks>
/// With three or more memcached servers the log has three copies (<see cref="LogReplica"/>) on three servers, so that no
/// one server's loss blinds the farm (issue 44): an append is complete when two copies took it, and the log is read
/// when two copies were read completely, so every read that counts meets every complete append in at least one copy.
/// Each copy is read on a thread of its own (one frozen server holds up only its own copy's reads); this process's L1 is
/// served (<see cref="IsFresh"/>) while the second most recent of the copies' complete reads started within the bound.
/// With one or two servers the log is the primary copy alone, as before.
/// </remarks>
internal sealed partial class InvalidationLog : IDisposable
{
    /// <summary>The ring's size: a poller further behind drops its whole L1.</summary>
    internal const int RingSize = LogReplica.RingSize;

    internal const string SequenceKey = LogReplica.PrimaryCounter;

    private readonly MemcachedEngine _engine;
    private readonly LocalCache _local;
    private readonly TagTable _tags;
    private readonly TimeSpan _bound;
    private readonly TimeSpan _interval;
    private readonly TimeSpan _stallLimit;
    private readonly LogReplica[] _replicas;
    private readonly int _quorum;
    private readonly Thread[] _threads;
    private readonly Thread _afterPollThread;
    private readonly ManualResetEventSlim _stopping = new();
    private readonly AutoResetEvent _pollCompleted = new(false);
    private readonly Lock _concluding = new();
    private readonly Func<CancellationToken, Task> _afterCompletePoll;
    private readonly Action<byte, string> _missed;
    private long _lastCompleteStart;
    private TaskCompletionSource _nextCompletePoll = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _outageSince;
    private long _allReadAt;
    private int _polls;

    /// <param name="engine">The client's engine.</param>
    /// <param name="local">The L1 the log's items drop copies from.</param>
    /// <param name="tags">The tag table the log's items record removals in.</param>
    /// <param name="bound">The invalidation bound; the log is read every half of it.</param>
    /// <param name="afterCompletePoll">Runs on a thread of the log's after each complete poll (the pending changes made again).</param>
    /// <param name="missed">Told each key that a log item names as removed where memcached did not take the delete of
    /// the entry or its gutter copy (every kind but <c>g</c>), and each tag whose removal the primary could not sequence (<c>t</c>), with the item's kind:
    /// kept pending here too (<see cref="PendingChanges"/>).</param>
    internal InvalidationLog(MemcachedEngine engine, LocalCache local, TagTable tags, TimeSpan bound, Func<CancellationToken, Task> afterCompletePoll, Action<byte, string> missed)
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
        _replicas = ReplicasOf(engine);
        _quorum = _replicas.Length / 2 + 1;
        _threads = new Thread[_replicas.Length];
        for (int i = 0; i < _replicas.Length; i++)
        {
            _threads[i] = new Thread(Run) { IsBackground = true, Name = "CacheSerializer HybridCache poller " + i.ToString(System.Globalization.CultureInfo.InvariantCulture) };
            _threads[i].Start(_replicas[i]);
        }

        _afterPollThread = new Thread(RunAfterPolls) { IsBackground = true, Name = "CacheSerializer HybridCache after polls" };
        _afterPollThread.Start();
    }

    /// <summary>Gets the servers the log's copies live on, the primary's first (for tests).</summary>
    internal IReadOnlyList<MemcachedNode> Servers => Array.ConvertAll(_replicas, static r => r.Node);

    /// <summary>Gets the last sequence of the primary copy whose items (and every one before) this process has applied; 0
    /// before the first read.</summary>
    internal ulong Seen => _replicas[0].Seen;

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
            return await LogReplica.ReadPrimaryCounterAsync(_engine, cancellationToken).ConfigureAwait(false) ?? Seen;
        }
        catch (MemcachedException)
        {
            return Seen;
        }
    }

    /// <summary>Gets a value indicating whether the log was read completely (on two of its three copies) less than the
    /// bound ago: the later of those reads' starts, and the earlier of the two.</summary>
    internal bool IsFresh
    {
        get
        {
            long start = Volatile.Read(ref _lastCompleteStart);
            return start != 0 && Stopwatch.GetElapsedTime(start) < _bound;
        }
    }

    /// <summary>Waits until the log was read completely less than the bound ago (<see cref="IsFresh"/>), for at most
    /// <paramref name="wait"/>; false when it was not by then. A read of memcached made by a server whose poller is late
    /// may not know of a removal whose delete memcached did not take yet (a frozen server runs it when it resumes, after
    /// reads sent later perhaps): the log tells every server to keep such a key pending.</summary>
    internal async ValueTask<bool> UntilFreshAsync(TimeSpan wait, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        while (!IsFresh)
        {
            Task next = Volatile.Read(ref _nextCompletePoll).Task;
            if (IsFresh)
            {
                break;
            }

            TimeSpan left = wait - Stopwatch.GetElapsedTime(start);
            if (left <= TimeSpan.Zero || await Task.WhenAny(next, Task.Delay(left, cancellationToken)).ConfigureAwait(false) != next)
            {
                cancellationToken.ThrowIfCancellationRequested();
                return IsFresh;
            }
        }

        return true;
    }

    /// <summary>Gets a value indicating whether the log could not be read since the last complete poll: too many of its
    /// copies' servers are down, refused or timed out. The first complete poll after it drops the whole L1.</summary>
    internal bool InOutage => Volatile.Read(ref _outageSince) != 0;

    /// <summary>Gets how many complete polls ran (for tests).</summary>
    internal int CompletePolls => Volatile.Read(ref _polls);

    public void Dispose()
    {
        _stopping.Set();
        foreach (Thread thread in _threads.Append(_afterPollThread))
        {
            if (Thread.CurrentThread != thread)
            {
                thread.Join();
            }
        }

        _stopping.Dispose();
        _pollCompleted.Dispose();
    }

    /// <summary>The log's copies: the primary on <c>hc:seq</c>'s server (on the full ring, whatever is down: where earlier
    /// builds keep it), and with three or more servers two mirrors on the next two servers in name order after it, a
    /// choice every web server with the same server list makes alike.</summary>
    private static LogReplica[] ReplicasOf(MemcachedEngine engine)
    {
        MemcachedNode home = engine.Home(engine.Key(SequenceKey));
        var primary = new LogReplica(engine, home, primary: true);
        if (engine.Nodes.Count < 3)
        {
            return [primary];
        }

        MemcachedNode[] byName = [.. engine.Nodes.OrderBy(static n => n.Name, StringComparer.Ordinal)];
        int at = Array.IndexOf(byName, home);
        return [primary, new LogReplica(engine, byName[(at + 1) % byName.Length], primary: false), new LogReplica(engine, byName[(at + 2) % byName.Length], primary: false)];
    }

    /// <summary>A copy's reader: reads it every half bound, then concludes whether the log as a whole was read.</summary>
    private void Run(object? state)
    {
        var replica = (LogReplica)state!;
        while (!_stopping.IsSet)
        {
            long start = Stopwatch.GetTimestamp();
            try
            {
                SyncCall.Run(() => replica.PollAsync(Apply, DropAll, _stallLimit, _engine.Lifetime));
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

            Conclude();
            TimeSpan left = _interval - Stopwatch.GetElapsedTime(start);
            if (left > TimeSpan.Zero)
            {
                _stopping.Wait(left);
            }
        }
    }

    /// <summary>After a copy's read: the log is in outage when fewer than two copies (one, with a single copy) can be
    /// read; it is read completely when two copies' complete reads started after the last complete poll's.</summary>
    private void Conclude()
    {
        lock (_concluding)
        {
            int failing = 0;
            Span<long> starts = stackalloc long[_replicas.Length];
            for (int i = 0; i < _replicas.Length; i++)
            {
                failing += _replicas[i].Failing ? 1 : 0;
                starts[i] = _replicas[i].LastCompleteStart;
            }

            if (failing > _replicas.Length - _quorum)
            {
                EnterOutage(); // not complete: L1 reads fall through to memcached, or are served as the options say
            }

            starts.Sort();
            long start = starts[_replicas.Length - _quorum]; // the quorum-th most recent
            if (start == 0 || start <= Volatile.Read(ref _lastCompleteStart))
            {
                return;
            }

            if (Volatile.Read(ref _outageSince) is long since and not 0)
            {
                // Removals made while the log could not be read were not logged (their writers failed as this poller did):
                // no copy this process holds can be trusted, nor the tags it knows.
                _local.Clear();
                _tags.Clear();
                Volatile.Write(ref _outageSince, 0);
                long milliseconds = (long)Stopwatch.GetElapsedTime(since).TotalMilliseconds;
                LogOutageEnded(_engine.Logger, milliseconds);
            }

            Volatile.Write(ref _lastCompleteStart, start);
            Interlocked.Increment(ref _polls);
            _pollCompleted.Set();
            Interlocked.Exchange(ref _nextCompletePoll, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
        }
    }

    /// <summary>After complete polls, on a thread of its own (a pending change or a record on a frozen server holds up
    /// neither copy's reader): <c>*</c>'s record read now and then, and the pending changes made again.</summary>
    private void RunAfterPolls()
    {
        WaitHandle[] handles = [_pollCompleted, _stopping.WaitHandle];
        while (WaitHandle.WaitAny(handles) == 0 && !_stopping.IsSet)
        {
            try
            {
                ReadAllRemovedAtNowAndThen();
                SyncCall.Run(() => _afterCompletePoll(_engine.Lifetime));
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

    /// <summary>Applies a log item: a tag's removal at the primary's <paramref name="sequence"/>, or a key's.</summary>
    private void Apply(byte kind, ulong sequence, string name)
    {
        if (kind == (byte)'t')
        {
            if (sequence != 0)
            {
                _tags.Record(name, sequence);
            }
            else
            {
                // Removed while the primary was down, so without a sequence: the tag's entries are refused here until
                // this server makes the removal again once the primary is back (whichever server does, every one does).
                _tags.Suspend(name, _local.Next());
                _missed(kind, name);
            }
        }
        else
        {
            _local.Drop(name);
            if (kind != (byte)'g')
            {
                // Its server may still hold the old value (deleted by whichever server reaches it first), or its gutter
                // copy may: every kind but g says so (k and K are earlier builds', which never delete the gutter copy).
                _missed(kind, name);
            }
        }
    }

    private void EnterOutage()
    {
        if (Interlocked.CompareExchange(ref _outageSince, Stopwatch.GetTimestamp(), 0) == 0)
        {
            LogOutageBegan(_engine.Logger);
        }
    }

    /// <summary>A copy's reader found it cannot be trusted (its first read, a counter that moved back, a reader too far
    /// behind, an item lost): every L1 copy and every tag known here goes.</summary>
    private void DropAll()
    {
        _local.Clear();
        _tags.Clear();
    }

    [LoggerMessage(EventId = 40, Level = LogLevel.Warning, Message = "memcached HybridCache: the invalidation log's item {Sequence} on {Server} stayed missing (its writer stopped, or memcached evicted it); this server dropped its whole L1 and moved on")]
    internal static partial void LogItemLost(ILogger logger, string server, ulong sequence);

    [LoggerMessage(EventId = 44, Level = LogLevel.Warning, Message = "memcached HybridCache: the invalidation log cannot be read (memcached is down or not answering); L1 copies are served as ServeL1DuringOutage says until it answers")]
    private static partial void LogOutageBegan(ILogger logger);

    [LoggerMessage(EventId = 45, Level = LogLevel.Information, Message = "memcached HybridCache: the invalidation log is read again after {Milliseconds} ms; this server dropped its whole L1 (removals made meanwhile were not logged)")]
    private static partial void LogOutageEnded(ILogger logger, long milliseconds);

    [LoggerMessage(EventId = 41, Level = LogLevel.Error, Message = "memcached HybridCache: a poll of the invalidation log failed; L1 reads fall through to memcached until one completes")]
    private static partial void LogPollFailed(ILogger logger, Exception exception);
}
