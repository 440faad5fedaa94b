namespace CacheSerializer.LoadTest.Measuring;

/// <summary>
/// Wraps a contender's transcoder to record the size of every item it writes and the thread CPU time of every call
/// (<see cref="ThreadCpuClock"/>), so a pass can tell the transcoder's CPU from the rest (client, checks, the harness).
/// </summary>
/// <param name="inner">The contender's transcoder.</param>
/// <param name="itemSizes">Where the payload sizes (bytes) of written items go.</param>
internal sealed class MeasuringTranscoder(ITranscoder inner, ValueHistogram itemSizes) : ITranscoder
{
    private long _serializeNanoseconds;
    private long _deserializeNanoseconds;

    /// <summary>Gets the thread CPU time spent in Serialize since the last <see cref="ResetCpu"/>, in nanoseconds.</summary>
    public long SerializeNanoseconds => Interlocked.Read(ref _serializeNanoseconds);

    /// <summary>Gets the thread CPU time spent in Deserialize since the last <see cref="ResetCpu"/>, in nanoseconds.</summary>
    public long DeserializeNanoseconds => Interlocked.Read(ref _deserializeNanoseconds);

    /// <summary>Starts the CPU counts again from zero (the measured phase starts after the warm-up).</summary>
    public void ResetCpu()
    {
        Interlocked.Exchange(ref _serializeNanoseconds, 0);
        Interlocked.Exchange(ref _deserializeNanoseconds, 0);
    }

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        long start = ThreadCpuClock.NowNanoseconds();
        try
        {
            CacheItem item = inner.Serialize(value);
            itemSizes.Record(item.Data.Count);
            return item;
        }
        finally
        {
            Interlocked.Add(ref _serializeNanoseconds, ThreadCpuClock.NowNanoseconds() - start);
        }
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item)
    {
        long start = ThreadCpuClock.NowNanoseconds();
        try
        {
            return inner.Deserialize(item);
        }
        finally
        {
            Interlocked.Add(ref _deserializeNanoseconds, ThreadCpuClock.NowNanoseconds() - start);
        }
    }

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        long start = ThreadCpuClock.NowNanoseconds();
        try
        {
            return inner.Deserialize<T>(item);
        }
        finally
        {
            Interlocked.Add(ref _deserializeNanoseconds, ThreadCpuClock.NowNanoseconds() - start);
        }
    }
}
