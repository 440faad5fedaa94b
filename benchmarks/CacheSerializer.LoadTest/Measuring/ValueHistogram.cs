using HdrHistogram;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>
/// The distribution of non-negative integers (latencies in microseconds, item sizes in bytes), recorded from many threads
/// at once into HdrHistogram (<see cref="LongConcurrentHistogram"/>, 3 significant digits: every percentile within 0.1%
/// of the value recorded). Count, sum and maximum are kept exactly beside it.
/// </summary>
/// <remarks>
/// Values above <see cref="HighestTrackable"/> (1 hour in microseconds, 1 GB in bytes) are recorded as that value, never
/// dropped. Percentiles are HdrHistogram's <c>GetValueAtPercentile</c>: the highest value equivalent to the one at that
/// rank (so a percentile is never reported below what was measured).
/// </remarks>
internal sealed class ValueHistogram
{
    /// <summary>The largest value told apart: an hour in microseconds, or a gigabyte.</summary>
    public const long HighestTrackable = 3_600_000_000;

    private readonly LongConcurrentHistogram _histogram = new(1, HighestTrackable, 3);
    private long _count;
    private long _sum;
    private long _max;

    /// <summary>Gets the number of values recorded.</summary>
    public long Count => Interlocked.Read(ref _count);

    /// <summary>Gets the sum of the values recorded.</summary>
    public long Sum => Interlocked.Read(ref _sum);

    /// <summary>Gets the largest value recorded (exact), or 0.</summary>
    public long Max => Interlocked.Read(ref _max);

    /// <summary>Gets the mean (exact), or 0 when empty.</summary>
    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    /// <summary>Records one value; negative values count as 0.</summary>
    /// <param name="value">The value.</param>
    public void Record(long value)
    {
        value = Math.Max(0, value);
        _histogram.RecordValue(Math.Min(value, HighestTrackable));
        Interlocked.Increment(ref _count);
        Interlocked.Add(ref _sum, value);
        long max = Interlocked.Read(ref _max);
        while (value > max)
        {
            long seen = Interlocked.CompareExchange(ref _max, value, max);
            if (seen == max)
            {
                break;
            }

            max = seen;
        }
    }

    /// <summary>Returns the value at a percentile, or 0 when empty.</summary>
    /// <param name="percentile">0 to 100.</param>
    /// <returns>The value (HdrHistogram's highest equivalent value at that rank, at most <see cref="Max"/>).</returns>
    public long Percentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        return Count == 0 ? 0 : Math.Min(_histogram.GetValueAtPercentile(percentile), Max);
    }
}
