using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>Everything a hybrid run measured, with what it ran on: the JSON file is this record.</summary>
internal sealed record HybridReport : ScenarioReport
{
    /// <summary>Gets the settings of the run.</summary>
    public required HybridSettings Settings { get; init; }

    /// <summary>Gets the redis-server the run started for the contenders over Redis.</summary>
    public required string Redis { get; init; }

    /// <summary>Gets one result per contender, in the order run.</summary>
    public required IReadOnlyList<HybridContenderResult> Contenders { get; init; }

    /// <inheritdoc/>
    public override IEnumerable<IScenarioPartResult> PartResults() => Contenders;

    /// <summary>Returns whether every contender ran without corrupt values, without errors in the steady and tags phases,
    /// and the package's own without errors in any phase (its reads never throw, through an outage or a fault too); the
    /// other contenders' errors in the outage, deploy and faults phases, stale reads and factory calls are what the run
    /// compares, not what it fails on.</summary>
    /// <returns>Whether the run passed.</returns>
    public override bool Passed() => Contenders.All(c => c.Corruptions == 0
        && c.Phases.All(p => p.Errors == 0 || (c.Contender is not "bounded" and not "strict" && (p.Phase is "outage" or "deploy" || HybridReportWriter.IsFaultStep(p)))));
}
