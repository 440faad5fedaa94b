using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>Everything a farm run measured, with what it ran on: the JSON file is this record.</summary>
internal sealed record FarmReport : ScenarioReport
{
    /// <summary>Gets the settings of the run.</summary>
    public required FarmSettings Settings { get; init; }

    /// <summary>Gets one result per mode, in the order run.</summary>
    public required IReadOnlyList<FarmModeResult> Modes { get; init; }

    /// <summary>Gets the callers reading each hot key at any moment, across the farm: the most a plain stampede can query.</summary>
    public double ReadersPerKey => (double)Settings.Clients * Settings.CallersPerClient / Settings.HotKeys;

    /// <inheritdoc/>
    public override IEnumerable<IScenarioPartResult> PartResults() => Modes;
}
