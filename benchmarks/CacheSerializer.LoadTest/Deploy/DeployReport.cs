using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Everything a rolling-deploy run measured, with what it ran on: the JSON file is this record.</summary>
internal sealed record DeployReport : ScenarioReport
{
    /// <summary>Gets the settings of the run.</summary>
    public required DeploySettings Settings { get; init; }

    /// <summary>Gets one result per change kind, in the order run.</summary>
    public required IReadOnlyList<DeployKindResult> Kinds { get; init; }

    /// <inheritdoc/>
    public override IEnumerable<IScenarioPartResult> PartResults() => Kinds;
}
