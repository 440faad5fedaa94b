using System.Collections.Concurrent;
using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.LoadTest.Running;

/// <summary>The live figures of one pass, updated by every virtual user and read by the progress display.</summary>
internal sealed class PassCounters
{
    private const int MaxSamples = 5;

    private readonly ConcurrentQueue<string> _errorSamples = new();
    private readonly ConcurrentQueue<string> _corruptionSamples = new();
    private long _operations;
    private long _gets;
    private long _sets;
    private long _hits;
    private long _misses;
    private long _errors;
    private long _corruptions;
    private int _stamp;

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

    /// <summary>Gets the reads that returned something other than what was last written, or could not be read back.</summary>
    public long Corruptions => Interlocked.Read(ref _corruptions);

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
    public IReadOnlyCollection<string> CorruptionSamples => _corruptionSamples;

    /// <summary>Returns a stamp no other write of the pass has.</summary>
    /// <returns>1, 2, 3, ...</returns>
    public int NextStamp() => Interlocked.Increment(ref _stamp);

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
    }

    /// <summary>Counts a set that the server answered.</summary>
    /// <param name="microseconds">Its latency.</param>
    public void Set(long microseconds)
    {
        Interlocked.Increment(ref _operations);
        Interlocked.Increment(ref _sets);
        Latency.Record(microseconds);
        SetLatency.Record(microseconds);
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
    }

    /// <summary>Counts a corruption.</summary>
    /// <param name="description">What was read instead of what.</param>
    public void Corruption(string description)
    {
        if (Interlocked.Increment(ref _corruptions) <= MaxSamples)
        {
            _corruptionSamples.Enqueue(description);
        }
    }
}
