using System.Numerics;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>
/// A log-linear histogram of non-negative integers (microseconds, bytes) with about 1.6% resolution, safe to record
/// from many threads at once. HdrHistogram does not restore here; this keeps the same idea at a fraction of its size.
/// </summary>
/// <remarks>
/// Values below 128 have a bucket each; above, every power of two is cut into 64 equal buckets, so a bucket is at most
/// 1/64 of its value wide. A percentile is reported as the middle of its bucket (exact below 128).
/// </remarks>
internal sealed class LogHistogram
{
    private const int SubBucketBits = 6;
    private const int SubBuckets = 1 << SubBucketBits;
    private const int LinearLimit = 2 * SubBuckets;
    private const int BucketCount = LinearLimit + ((63 - SubBucketBits - 1) * SubBuckets);

    private readonly long[] _counts = new long[BucketCount];
    private long _count;
    private long _sum;
    private long _max;

    /// <summary>Gets the number of values recorded.</summary>
    public long Count => Interlocked.Read(ref _count);

    /// <summary>Gets the sum of the values recorded.</summary>
    public long Sum => Interlocked.Read(ref _sum);

    /// <summary>Gets the largest value recorded (exact), or 0.</summary>
    public long Max => Interlocked.Read(ref _max);

    /// <summary>Gets the mean, or 0 when empty.</summary>
    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    /// <summary>Records one value; negative values count as 0.</summary>
    /// <param name="value">The value.</param>
    public void Record(long value)
    {
        value = Math.Max(0, value);
        Interlocked.Increment(ref _counts[IndexOf(value)]);
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

    /// <summary>Returns the value at or below which <paramref name="percentile"/> percent of the values lie.</summary>
    /// <param name="percentile">From 0 to 100.</param>
    /// <returns>The middle of that value's bucket (never above <see cref="Max"/>), or 0 when empty.</returns>
    public long Percentile(double percentile)
    {
        long count = Count;
        if (count == 0)
        {
            return 0;
        }

        long rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * count));
        long seen = 0;
        for (int i = 0; i < _counts.Length; i++)
        {
            seen += Interlocked.Read(ref _counts[i]);
            if (seen >= rank)
            {
                (long low, long high) = BoundsOf(i);
                return Math.Min(low + ((high - low) / 2), Max);
            }
        }

        return Max;
    }

    /// <summary>Returns the bucket index of a value (public for the tests of the bucket layout).</summary>
    /// <param name="value">A value, 0 or more.</param>
    /// <returns>The index.</returns>
    public static int IndexOf(long value)
    {
        if (value < LinearLimit)
        {
            return (int)value;
        }

        int exponent = 63 - BitOperations.LeadingZeroCount((ulong)value);
        int shift = exponent - SubBucketBits;
        return LinearLimit + ((exponent - SubBucketBits - 1) * SubBuckets) + (int)((value >> shift) - SubBuckets);
    }

    /// <summary>Returns the smallest and largest value of a bucket.</summary>
    /// <param name="index">The bucket index.</param>
    /// <returns>The inclusive bounds.</returns>
    public static (long Low, long High) BoundsOf(int index)
    {
        if (index < LinearLimit)
        {
            return (index, index);
        }

        int k = index - LinearLimit;
        int shift = (k / SubBuckets) + 1;
        long mantissa = (k % SubBuckets) + SubBuckets;
        return (mantissa << shift, ((mantissa + 1) << shift) - 1);
    }
}
