using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>The result of the rolling deploy of one change kind.</summary>
internal sealed record DeployKindResult : IScenarioPartResult
{
    /// <summary>Gets the change kind's name.</summary>
    public required string Kind { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Kind;

    /// <summary>Gets what build 2 changes.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the phases: before, during, after.</summary>
    public required IReadOnlyList<DeployPhaseResult> Phases { get; init; }

    /// <summary>Gets up to five samples of the errors and corruptions, and of the lost writes.</summary>
    public required IReadOnlyList<string> Samples { get; init; }

    /// <summary>Gets the errors of every phase.</summary>
    public long Errors => Phases.Sum(p => p.Errors);

    /// <summary>Gets the corruptions of every phase.</summary>
    public long Corruptions => Phases.Sum(p => p.Corruptions);

    /// <summary>Gets the stale values of every phase.</summary>
    public long StaleValues => Phases.Sum(p => p.StaleValues);

    /// <summary>Gets the lost writes of every phase, or null when memcached evicted.</summary>
    public long? LostWrites => Phases.Any(p => p.LostWrites is null) ? null : Phases.Sum(p => p.LostWrites!.Value);

    /// <summary>Gets the unreadable items of every phase, by reason.</summary>
    public IReadOnlyDictionary<string, long> Unreadable => new SortedDictionary<string, long>(
        Phases.SelectMany(p => p.Unreadable).GroupBy(u => u.Key, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(u => u.Value), StringComparer.Ordinal),
        StringComparer.Ordinal);

    /// <summary>Gets the misses (unreadable items and keys an update deleted) of every phase.</summary>
    public long Misses => Phases.Sum(p => p.Misses);

    /// <summary>Gets the factory calls of every phase.</summary>
    public long FactoryCalls => Phases.Sum(p => p.FactoryCalls);

    /// <summary>Gets a phase's result.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its result.</returns>
    public DeployPhaseResult this[DeployPhase phase] => Phases[(int)phase];
}
