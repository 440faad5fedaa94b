using System.Collections.Concurrent;
using System.Diagnostics;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Results;

namespace CacheSerializer.LoadTest.Running;

/// <summary>The live figures of one pass, updated by every virtual user and read by the progress display.</summary>
internal sealed class PassCounters
{
    private const int MaxSamples = 5;

    private readonly ConcurrentQueue<string> _errorSamples = new();
    private long _operations;
    private long _gets;
    private long _sets;
    private long _hits;
    private long _misses;
    private long _errors;
    private long _storeFailures;
    private int _stamp;
    private long _startTimestamp = Stopwatch.GetTimestamp();

    // Per second of the pass: operations, hits, misses, store failures, errors (a pass is at most an hour long).
    private readonly long[,] _timeline = new long[3601, 5];

    /// <summary>Gets the operations done (gets and sets, failed ones included).</summary>
    public long Operations => Interlocked.Read(ref _operations);

    /// <summary>Gets the gets done.</summary>
    public long Gets => Interlocked.Read(ref _gets);

    /// <summary>Gets the sets done.</summary>
    public long Sets => Interlocked.Read(ref _sets);

    /// <summary>Gets the gets that found a value.</summary>
    public long Hits => Interlocked.Read(ref _hits);

    /// <summary>Gets the gets that found nothing.</summary>
    public long Misses => Interlocked.Read(ref _misses);

    /// <summary>Gets the operations that failed with the client's exception (server down, timeout, too large, refused).</summary>
    public long Errors => Interlocked.Read(ref _errors);

    /// <summary>Gets what the checks found wrong in the values read: corruptions and misses on stored keys.</summary>
    public ReadFindings Findings { get; } = new();

    /// <summary>Gets the reads that returned something other than what was last written, or an item that could not be read back.</summary>
    public long Corruptions => Findings.Corruptions;

    /// <summary>Gets the sets that returned <c>ServerFailure</c>: their server was down or failed (the client's default policy).</summary>
    public long StoreFailures => Interlocked.Read(ref _storeFailures);

    /// <summary>Gets the latency of every operation, in microseconds.</summary>
    public ValueHistogram Latency { get; } = new();

    /// <summary>Gets the latency of the gets, in microseconds.</summary>
    public ValueHistogram GetLatency { get; } = new();

    /// <summary>Gets the latency of the sets, in microseconds.</summary>
    public ValueHistogram SetLatency { get; } = new();

    /// <summary>Gets the payload size of every item written, in bytes.</summary>
    public ValueHistogram ItemSizes { get; } = new();

    /// <summary>Gets the first few error messages.</summary>
    public IReadOnlyCollection<string> ErrorSamples => _errorSamples;

    /// <summary>Gets the first few corruption descriptions.</summary>
    public IReadOnlyCollection<string> CorruptionSamples => Findings.CorruptionSamples;

    /// <summary>Returns a stamp no other write of the pass has.</summary>
    /// <returns>1, 2, 3, ...</returns>
    public int NextStamp() => Interlocked.Increment(ref _stamp);

    /// <summary>Starts the timeline's clock: second 0 begins now (when the users start).</summary>
    public void StartTimeline() => Interlocked.Exchange(ref _startTimestamp, Stopwatch.GetTimestamp());

    /// <summary>Returns the timeline up to <paramref name="seconds"/>: what happened in each second of the pass.</summary>
    /// <param name="seconds">The pass's length in seconds.</param>
    /// <returns>One entry per second.</returns>
    public IReadOnlyList<TimelineSecond> Timeline(double seconds)
    {
        int count = Math.Min((int)Math.Ceiling(seconds), _timeline.GetLength(0));
        var timeline = new TimelineSecond[count];
        for (int i = 0; i < count; i++)
        {
            timeline[i] = new TimelineSecond(i, Interlocked.Read(ref _timeline[i, 0]), Interlocked.Read(ref _timeline[i, 1]), Interlocked.Read(ref _timeline[i, 2]),
                Interlocked.Read(ref _timeline[i, 3]), Interlocked.Read(ref _timeline[i, 4]));
        }

        return timeline;
    }

    /// <summary>Counts a get.</summary>
    /// <param name="microseconds">Its latency.</param>
    /// <param name="hit">Whether it found a value.</param>
    public void Got(long microseconds, bool hit)
    {
        Interlocked.Increment(ref _operations);
        Interlocked.Increment(ref _gets);
        Interlocked.Increment(ref hit ? ref _hits : ref _misses);
        Latency.Record(microseconds);
        GetLatency.Record(microseconds);
        Tick(hit ? 1 : 2);
    }

    /// <summary>Counts a set that the server answered, or whose server failed (<paramref name="serverFailure"/>).</summary>
    /// <param name="microseconds">Its latency.</param>
    /// <param name="serverFailure">Whether the client returned <c>ServerFailure</c>.</param>
    public void Set(long microseconds, bool serverFailure = false)
    {
        Interlocked.Increment(ref _operations);
        Interlocked.Increment(ref _sets);
        Latency.Record(microseconds);
        SetLatency.Record(microseconds);
        if (serverFailure)
        {
            Interlocked.Increment(ref _storeFailures);
        }

        Tick(serverFailure ? 3 : -1);
    }

    /// <summary>Counts a failed operation.</summary>
    /// <param name="message">What failed.</param>
    public void Error(string message)
    {
        Interlocked.Increment(ref _operations);
        if (Interlocked.Increment(ref _errors) <= MaxSamples)
        {
            _errorSamples.Enqueue(message);
        }

        Tick(4);
    }

    /// <summary>Counts one operation in the current second, and one of its kind (-1: nothing more).</summary>
    private void Tick(int kind)
    {
        long second = (long)Stopwatch.GetElapsedTime(Interlocked.Read(ref _startTimestamp)).TotalSeconds;
        if (second < _timeline.GetLength(0))
        {
            Interlocked.Increment(ref _timeline[second, 0]);
            if (kind > 0)
            {
                Interlocked.Increment(ref _timeline[second, kind]);
            }
        }
    }

    /// <summary>Counts a corruption.</summary>
    /// <param name="description">What was read instead of what.</param>
    public void Corruption(string description) => Findings.Corruption(description);
}
