using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.Samples.Tests.LoadTest.Measuring;

public sealed class LogHistogramTests
{
    [Theory]
    [InlineData(0L)]
    [InlineData(127L)]
    [InlineData(128L)]
    [InlineData(1_000L)]
    [InlineData(123_456_789L)]
    [InlineData(long.MaxValue)]
    public void IndexOf_AnyValue_FallsInsideItsBucketWithinOneSixtyFourth(long value)
    {
        (long low, long high) = LogHistogram.BoundsOf(LogHistogram.IndexOf(value));

        Assert.InRange(value, low, high);
        Assert.True(high - low <= Math.Max(0, low / 64), $"bucket [{low}, {high}] is wider than 1/64 of {low}");
    }

    [Fact]
    public void IndexOf_ConsecutiveBuckets_TileTheRangeWithoutGaps()
    {
        long next = 0;
        for (int i = 0; i < 1000; i++)
        {
            (long low, long high) = LogHistogram.BoundsOf(i);
            Assert.Equal(next, low);
            Assert.Equal(i, LogHistogram.IndexOf(low));
            Assert.Equal(i, LogHistogram.IndexOf(high));
            next = high + 1;
        }
    }

    [Fact]
    public void Percentile_OneToTenThousand_WithinBucketResolution()
    {
        var histogram = new LogHistogram();
        for (long v = 1; v <= 10_000; v++)
        {
            histogram.Record(v);
        }

        Assert.Equal(10_000, histogram.Count);
        Assert.Equal(10_000, histogram.Max);
        Assert.Equal(5_000.5, histogram.Mean);
        Assert.InRange(histogram.Percentile(50), 5_000 - 40, 5_000 + 40);
        Assert.InRange(histogram.Percentile(99), 9_900 - 80, 9_900 + 80);
        Assert.Equal(1, histogram.Percentile(0));
    }

    [Fact]
    public async Task Record_FromManyThreads_CountsEveryValue()
    {
        var histogram = new LogHistogram();

        await Task.WhenAll(Enumerable.Range(0, 8).Select(t => Task.Run(() =>
        {
            for (int i = 0; i < 10_000; i++)
            {
                histogram.Record(t * 1000 + (i % 100));
            }
        })));

        Assert.Equal(80_000, histogram.Count);
        Assert.Equal(7_099, histogram.Max);
    }
}
