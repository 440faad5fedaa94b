using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.LoadTest.Results;

/// <summary>The summary of a histogram as reports show it.</summary>
internal sealed record Distribution
{
    /// <summary>Gets the number of values.</summary>
    public long Count { get; init; }

    /// <summary>Gets the mean.</summary>
    public double Mean { get; init; }

    /// <summary>Gets the median.</summary>
    public long P50 { get; init; }

    /// <summary>Gets the 95th percentile.</summary>
    public long P95 { get; init; }

    /// <summary>Gets the 99th percentile.</summary>
    public long P99 { get; init; }

    /// <summary>Gets the largest value.</summary>
    public long Max { get; init; }

    /// <summary>Summarizes a histogram.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <returns>The summary.</returns>
    public static Distribution Of(ValueHistogram histogram) => new()
    {
        Count = histogram.Count,
        Mean = Math.Round(histogram.Mean, 1),
        P50 = histogram.Percentile(50),
        P95 = histogram.Percentile(95),
        P99 = histogram.Percentile(99),
        Max = histogram.Max,
    };
}
