using CacheSerializer.LoadTest.Measuring;
using HdrHistogram;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Measuring;

public sealed class ValueHistogramTests
{
    [Fact]
    public void Percentile_OneToTenThousand_IsHdrHistogramsValueWithExactCountMeanAndMax()
    {
        var histogram = new ValueHistogram();
        var reference = new LongHistogram(1, ValueHistogram.HighestTrackable, 3);
        for (long v = 1; v <= 10_000; v++)
        {
            histogram.Record(v);
            reference.RecordValue(v);
        }

        Assert.Equal(10_000, histogram.Count);
        Assert.Equal(10_000, histogram.Max);
        Assert.Equal(5_000.5, histogram.Mean);
        Assert.Equal(reference.GetValueAtPercentile(50), histogram.Percentile(50));
        Assert.Equal(reference.GetValueAtPercentile(99), histogram.Percentile(99));
        Assert.InRange(histogram.Percentile(50), 5_000, 5_005);
        Assert.InRange(histogram.Percentile(99), 9_900, 9_910);
        Assert.Equal(1, histogram.Percentile(0));
        Assert.Equal(10_000, histogram.Percentile(100));
    }

    [Fact]
    public void Record_NegativeAndBeyondTheRange_CountedAsZeroAndAsTheHighestValue()
    {
        var histogram = new ValueHistogram();

        histogram.Record(-5);
        histogram.Record(ValueHistogram.HighestTrackable * 2);

        Assert.Equal(2, histogram.Count);
        Assert.Equal(ValueHistogram.HighestTrackable * 2, histogram.Max);
        Assert.Equal(0, histogram.Percentile(50));
    }

    [Fact]
    public void Percentile_Empty_IsZero()
    {
        Assert.Equal(0, new ValueHistogram().Percentile(99));
        Assert.Equal(0, new ValueHistogram().Mean);
    }

    [Fact]
    public async Task Record_FromManyThreads_CountsEveryValue()
    {
        var histogram = new ValueHistogram();

        await Task.WhenAll(Enumerable.Range(0, 8).Select(t => Task.Run(() =>
        {
            for (int i = 0; i < 10_000; i++)
            {
                histogram.Record(t * 1000 + (i % 100));
            }
        })));

        Assert.Equal(80_000, histogram.Count);
        Assert.Equal(7_099, histogram.Max);
        Assert.Equal(7_099, histogram.Percentile(100));
    }
}
