namespace CacheSerializer.LoadTest.Results;

/// <summary>Everything a run measured, with what it ran on: the JSON file is this record.</summary>
internal sealed record LoadTestReport
{
    /// <summary>Gets when the run started (UTC).</summary>
    public DateTimeOffset Started { get; init; }

    /// <summary>Gets when the run ended (UTC).</summary>
    public DateTimeOffset Finished { get; init; }

    /// <summary>Gets the machine line: runtime, OS, CPU model and cores.</summary>
    public required string Machine { get; init; }

    /// <summary>Gets the 1-minute load average when the run started and when it ended (Linux; empty elsewhere).</summary>
    public required string LoadAverage { get; init; }

    /// <summary>Gets the settings of the run.</summary>
    public required LoadTestSettings Settings { get; init; }

    /// <summary>Gets the servers used, and whether the run started them.</summary>
    public required string Servers { get; init; }

    /// <summary>Gets the mix.</summary>
    public required IReadOnlyList<ShapeSummary> Mix { get; init; }

    /// <summary>Gets one result per contender, in the order run.</summary>
    public required IReadOnlyList<PassResult> Passes { get; init; }

    /// <summary>Gets the short mode's repeat of the first contender's pass, or null.</summary>
    public PassResult? Repeat { get; init; }

    /// <summary>Gets the short mode's check of whether its throughput ratios can be read, or null outside the short mode.</summary>
    public RunReadability? Readability { get; init; }
}
