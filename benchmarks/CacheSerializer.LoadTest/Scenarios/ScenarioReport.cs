using System.Text.Json.Serialization;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>What every run's report (a scenario's, the main pass's) says of the run (<see cref="ScenarioRunner"/> fills it in for a scenario); each
/// report adds its settings and results. The JSON file is the scenario's report, these fields first (ordered in steps
/// of ten, so a report can put one of its own among them: the main pass's settings come before its servers).</summary>
internal abstract record ScenarioReport
{
    /// <summary>Gets when the run started (UTC).</summary>
    [JsonPropertyOrder(-50)]
    public DateTimeOffset Started { get; init; }

    /// <summary>Gets when the run ended (UTC).</summary>
    [JsonPropertyOrder(-40)]
    public DateTimeOffset Finished { get; init; }

    /// <summary>Gets the machine line: runtime, OS, CPU model and cores.</summary>
    [JsonPropertyOrder(-30)]
    public string Machine { get; init; } = string.Empty;

    /// <summary>Gets the 1-minute load average when the run started and when it ended.</summary>
    [JsonPropertyOrder(-20)]
    public string LoadAverage { get; init; } = string.Empty;

    /// <summary>Gets the memcached servers the run started.</summary>
    [JsonPropertyOrder(-10)]
    public string Servers { get; init; } = string.Empty;

    /// <summary>Returns the results of the parts run (a method, so the JSON holds them once, under the scenario's name).</summary>
    /// <returns>The parts' results.</returns>
    public abstract IEnumerable<IScenarioPartResult> PartResults();

    /// <summary>Returns whether every part passed its checks: no error, no corruption, no lost write (and evictions did
    /// not leave the last unknown). The command's exit code says so. A scenario with a part run to show what goes wrong
    /// (the migration's contrast) checks its own targets instead.</summary>
    /// <returns>Whether the run passed.</returns>
    public virtual bool Passed() => PartResults().All(p => p.Errors == 0 && p.Corruptions == 0 && p.LostWrites is 0);
}
