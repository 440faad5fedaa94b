using System.Text.Json.Serialization;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Results;

/// <summary>Everything a run measured, with what it ran on (<see cref="ScenarioReport"/>'s fields): the JSON file is this record.</summary>
internal sealed record LoadTestReport : ScenarioReport
{
    /// <summary>Gets the settings of the run.</summary>
    [JsonPropertyOrder(-15)]
    public required LoadTestSettings Settings { get; init; }

    /// <summary>Gets the mix.</summary>
    public required IReadOnlyList<ShapeSummary> Mix { get; init; }

    /// <summary>Gets one result per contender, in the order run.</summary>
    public required IReadOnlyList<PassResult> Passes { get; init; }

    /// <summary>Gets the short mode's repeat of the first contender's pass, or null.</summary>
    public PassResult? Repeat { get; init; }

    /// <summary>Gets the short mode's check of whether its throughput ratios can be read, or null outside the short mode.</summary>
    public RunReadability? Readability { get; init; }

    /// <inheritdoc/>
    public override IEnumerable<IScenarioPartResult> PartResults() => Passes;

    /// <summary>Returns whether every contender's pass completed (<see cref="PassResult.Completed"/>: every operation
    /// answered, nothing corrupt); the main command's exit code says so.</summary>
    /// <returns>Whether the run passed.</returns>
    public override bool Passed() => Passes.All(p => p.Completed);
}
