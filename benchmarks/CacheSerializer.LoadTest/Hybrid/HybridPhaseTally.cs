using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The counts of one phase (or one step of the faults phase) of one contender, which every caller adds to for
/// the reads it began in it.</summary>
/// <param name="phase">The phase.</param>
/// <param name="name">The name in the report: the phase's, or for a step of the faults phase "faults: " and the step's.</param>
/// <param name="faultedKeys">For a step that faults one server, whether each key (by row) is placed on it; null otherwise.</param>
internal sealed class HybridPhaseTally(HybridPhase phase, string name, bool[]? faultedKeys)
{
    /// <summary>What a read's check returns for a stale value.</summary>
    public const string Stale = "stale";

    /// <summary>A read longer than this is named in the samples: a caller stopped (the 1 ms between calls and a 20 ms
    /// factory make a normal read far shorter).</summary>
    public static readonly TimeSpan SlowRead = TimeSpan.FromSeconds(1);

    private readonly MessageSamples _samples = new();
    private readonly MessageSamples _staleSamples = new();
    private readonly ConcurrentDictionary<(int Key, int Version, int Build), int> _calls = new();
    private readonly List<long> _removalTicks = [];
    private long _readsAfterResume;
    private long _hitsAfterResume;
    private long _staleOnFaulted;
    private long _staleAfterResume;
    private long _abandonedRemovals;
    private long _outagesEntered;
    private long _changesFailed;
    private long _slowestTicks;
    private long _reads;
    private long _stale;
    private long _l2Reads;
    private long _staleL2;
    private long _hits;
    private long _l1Hits;
    private long _errors;
    private long _corruptions;
    private long _resumedAt = long.MaxValue;
    private long _firstL2HitAfterResume = long.MaxValue;

    /// <summary>Creates the tally of an ordinary phase, named as the phase.</summary>
    /// <param name="phase">The phase.</param>
    public HybridPhaseTally(HybridPhase phase)
        : this(phase, HybridSettings.NameOf(phase), null)
    {
    }

    /// <summary>Gets the phase.</summary>
    public HybridPhase Phase => phase;

    /// <summary>Gets the name in the report.</summary>
    public string Name => name;

    /// <summary>Gets a value indicating whether the callers read the tagged keys (the tags phase, the faults phase).</summary>
    public bool Tagged => phase is HybridPhase.Tags or HybridPhase.Faults;

    /// <summary>Gets the reads of both kinds that began after the fault was lifted (<see cref="Resumed"/>).</summary>
    public long ReadsAfterResume => Interlocked.Read(ref _readsAfterResume);

    /// <summary>Gets the hits among <see cref="ReadsAfterResume"/>.</summary>
    public long HitsAfterResume => Interlocked.Read(ref _hitsAfterResume);

    /// <summary>Gets the stale reads of both kinds among <see cref="ReadsAfterResume"/>.</summary>
    public long StaleAfterResume => Interlocked.Read(ref _staleAfterResume);

    /// <summary>Gets the stale reads of both kinds of keys placed on the faulted server.</summary>
    public long StaleOnFaultedServer => Interlocked.Read(ref _staleOnFaulted);

    /// <summary>Gets the removals that threw because their web server was disposed while they ran (the faults phase's
    /// restart of a web server): lost with it, as in a process that ends, not errors.</summary>
    public long AbandonedRemovals => Interlocked.Read(ref _abandonedRemovals);

    /// <summary>Gets the times a web server of the package's HybridCache said it could not read its invalidation log and
    /// serves L1 through an outage (its event 44).</summary>
    public long OutagesEntered => Interlocked.Read(ref _outagesEntered);

    /// <summary>Gets the changes a web server of the package's HybridCache said memcached did not take, kept to be made
    /// again (its event 43).</summary>
    public long ChangesFailed => Interlocked.Read(ref _changesFailed);

    /// <summary>Gets the reads that went through both levels (L1 allowed).</summary>
    public long Reads => Interlocked.Read(ref _reads);

    /// <summary>Gets the stale reads among <see cref="Reads"/>.</summary>
    public long StaleReads => Interlocked.Read(ref _stale);

    /// <summary>Gets the reads that skipped L1.</summary>
    public long L2Reads => Interlocked.Read(ref _l2Reads);

    /// <summary>Gets the stale reads among <see cref="L2Reads"/>.</summary>
    public long StaleL2Reads => Interlocked.Read(ref _staleL2);

    /// <summary>Gets the longest a read took, in <see cref="Stopwatch"/> ticks.</summary>
    public TimeSpan SlowestRead => Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _slowestTicks));

    /// <summary>Gets the reads of both kinds whose own factory did not run.</summary>
    public long Hits => Interlocked.Read(ref _hits);

    /// <summary>Gets the reads among <see cref="Reads"/> answered from L1 (<see cref="HybridReadSource.L1"/>).</summary>
    public long L1Hits => Interlocked.Read(ref _l1Hits);

    /// <summary>Gets the exceptions thrown to the callers (reads) and to the updater (removals).</summary>
    public long Errors => Interlocked.Read(ref _errors);

    /// <summary>Gets the reads that returned a value of another key or a version the row never had.</summary>
    public long Corruptions => Interlocked.Read(ref _corruptions);

    /// <summary>Gets the time from the L2 server's return (<see cref="Resumed"/>) to the end of the first read that
    /// skipped L1, began after it and was answered from L2; null when there was none (or no outage).</summary>
    public TimeSpan? L2HitsBackAfter
    {
        get
        {
            long resumed = Interlocked.Read(ref _resumedAt);
            long first = Interlocked.Read(ref _firstL2HitAfterResume);
            return first == long.MaxValue ? null : Stopwatch.GetElapsedTime(resumed, first);
        }
    }

    /// <summary>Gets the factory calls of every (key, version, build) that had at least one.</summary>
    /// <returns>The calls, in no particular order.</returns>
    public int[] CallsPerVersion() => [.. _calls.Values];

    /// <summary>Counts a factory call that read <paramref name="version"/> of row <paramref name="key"/> on a web server
    /// of build <paramref name="build"/>.</summary>
    /// <param name="key">The row.</param>
    /// <param name="version">The version read.</param>
    /// <param name="build">The build.</param>
    public void FactoryCall(int key, int version, int build) => _calls.AddOrUpdate((key, version, build), 1, static (_, count) => count + 1);

    /// <summary>Notes that the L2 server is back, now (<see cref="Stopwatch.GetTimestamp"/>).</summary>
    /// <param name="timestamp">The time it was let run again.</param>
    public void Resumed(long timestamp) => Interlocked.Exchange(ref _resumedAt, timestamp);

    /// <summary>Notes how long a removal (<c>RemoveAsync</c>, or <c>RemoveByTagAsync</c>) took to return.</summary>
    /// <param name="ticks">Its time, in <see cref="Stopwatch"/> ticks.</param>
    public void Removal(long ticks)
    {
        lock (_removalTicks)
        {
            _removalTicks.Add(ticks);
        }
    }

    /// <summary>Returns a percentile of the removals' times, in milliseconds (the nearest rank).</summary>
    /// <param name="percentile">From 0 to 100.</param>
    /// <returns>The time, or null when no removal returned.</returns>
    public double? RemovalMilliseconds(double percentile)
    {
        long[] sorted;
        lock (_removalTicks)
        {
            sorted = [.. _removalTicks];
        }

        if (sorted.Length == 0)
        {
            return null;
        }

        Array.Sort(sorted);
        int rank = Math.Clamp((int)Math.Ceiling(percentile / 100 * sorted.Length) - 1, 0, sorted.Length - 1);
        return Stopwatch.GetElapsedTime(0, sorted[rank]).TotalMilliseconds;
    }

    /// <summary>Counts a removal lost with its web server (see <see cref="AbandonedRemovals"/>).</summary>
    /// <param name="message">What was lost.</param>
    public void Abandoned(string message)
    {
        Interlocked.Increment(ref _abandonedRemovals);
        _samples.Add("abandoned: " + message);
    }

    /// <summary>Counts an event the package's HybridCache logged.</summary>
    /// <param name="outage">True for "the log cannot be read" (event 44), false for "a change was not taken" (event 43).</param>
    public void HybridEvent(bool outage) => Interlocked.Increment(ref outage ? ref _outagesEntered : ref _changesFailed);

    /// <summary>Counts a read: of L2 only or not, where its value came from, and good (null), stale, or corrupt (the
    /// message).</summary>
    /// <param name="l2">Whether it skipped L1.</param>
    /// <param name="source">Where its value came from.</param>
    /// <param name="problem">Null, <see cref="Stale"/>, or what is wrong.</param>
    /// <param name="started">When it began (<see cref="Stopwatch.GetTimestamp"/>).</param>
    /// <param name="key">Its key, named in the samples when the read took more than <see cref="SlowRead"/>.</param>
    /// <param name="row">Its row, for <see cref="StaleOnFaultedServer"/>.</param>
    public void Read(bool l2, HybridReadSource source, string? problem, long started, string key, int row)
    {
        long took = Stopwatch.GetTimestamp() - started;
        for (long slowest = Interlocked.Read(ref _slowestTicks); took > slowest;)
        {
            long was = Interlocked.CompareExchange(ref _slowestTicks, took, slowest);
            slowest = was == slowest ? took : was;
        }

        if (Stopwatch.GetElapsedTime(0, took) > SlowRead)
        {
            _samples.Add(string.Create(CultureInfo.InvariantCulture, $"slow read: {key} took {Stopwatch.GetElapsedTime(0, took).TotalMilliseconds:0} ms ({source}{(l2 ? ", skipping L1" : string.Empty)}), ended {DateTime.UtcNow:HH:mm:ss.fff} UTC"));
        }

        Interlocked.Increment(ref l2 ? ref _l2Reads : ref _reads);
        if (source != HybridReadSource.Factory)
        {
            Interlocked.Increment(ref _hits);
        }

        if (source == HybridReadSource.L1 && !l2)
        {
            Interlocked.Increment(ref _l1Hits);
        }

        if (l2 && source == HybridReadSource.L2 && started >= Interlocked.Read(ref _resumedAt))
        {
            long now = Stopwatch.GetTimestamp();
            long seen = Interlocked.Read(ref _firstL2HitAfterResume);
            while (now < seen)
            {
                long was = Interlocked.CompareExchange(ref _firstL2HitAfterResume, now, seen);
                seen = was == seen ? now : was;
            }
        }

        if (started >= Interlocked.Read(ref _resumedAt))
        {
            Interlocked.Increment(ref _readsAfterResume);
            if (source != HybridReadSource.Factory)
            {
                Interlocked.Increment(ref _hitsAfterResume);
            }

            if (problem == Stale)
            {
                Interlocked.Increment(ref _staleAfterResume);
            }
        }

        if (problem == Stale)
        {
            _staleSamples.Add(string.Create(CultureInfo.InvariantCulture, $"stale read: {key} ({source}{(l2 ? ", skipping L1" : string.Empty)}), took {Stopwatch.GetElapsedTime(0, took).TotalMilliseconds:0} ms, ended {DateTime.UtcNow:HH:mm:ss.fff} UTC"));
            Interlocked.Increment(ref l2 ? ref _staleL2 : ref _stale);
            if (faultedKeys is not null && row < faultedKeys.Length && faultedKeys[row])
            {
                Interlocked.Increment(ref _staleOnFaulted);
            }
        }
        else if (problem is not null)
        {
            Interlocked.Increment(ref _corruptions);
            _samples.Add(problem);
        }
    }

    /// <summary>Counts an exception.</summary>
    /// <param name="message">What threw, and the exception.</param>
    public void Error(string message)
    {
        Interlocked.Increment(ref _errors);
        _samples.Add(message);
    }

    /// <summary>Returns a few error and corruption messages.</summary>
    /// <returns>The messages.</returns>
    public IReadOnlyList<string> Samples() => [.. _staleSamples.ToList(), .. _samples.ToList()];
}
