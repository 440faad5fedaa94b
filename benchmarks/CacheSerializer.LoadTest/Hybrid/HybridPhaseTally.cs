using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The counts of one phase of one contender, which every caller adds to for the reads it began in the phase.</summary>
/// <param name="phase">The phase.</param>
internal sealed class HybridPhaseTally(HybridPhase phase)
{
    /// <summary>What a read's check returns for a stale value.</summary>
    public const string Stale = "stale";

    /// <summary>A read longer than this is named in the samples: a caller stopped (the 1 ms between calls and a 20 ms
    /// factory make a normal read far shorter).</summary>
    public static readonly TimeSpan SlowRead = TimeSpan.FromSeconds(1);

    private readonly MessageSamples _samples = new();
    private readonly ConcurrentDictionary<(int Key, int Version, int Build), int> _calls = new();
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

    /// <summary>Gets the phase.</summary>
    public HybridPhase Phase => phase;

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

    /// <summary>Counts a read: of L2 only or not, where its value came from, and good (null), stale, or corrupt (the
    /// message).</summary>
    /// <param name="l2">Whether it skipped L1.</param>
    /// <param name="source">Where its value came from.</param>
    /// <param name="problem">Null, <see cref="Stale"/>, or what is wrong.</param>
    /// <param name="started">When it began (<see cref="Stopwatch.GetTimestamp"/>).</param>
    /// <param name="key">Its key, named in the samples when the read took more than <see cref="SlowRead"/>.</param>
    public void Read(bool l2, HybridReadSource source, string? problem, long started, string key)
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

        if (problem == Stale)
        {
            Interlocked.Increment(ref l2 ? ref _staleL2 : ref _stale);
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
    public IReadOnlyList<string> Samples() => _samples.ToList();
}
