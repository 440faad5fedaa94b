namespace CacheSerializer.LoadTest.Deploy;

/// <summary>The result of the rolling deploy of one change kind.</summary>
internal sealed record DeployKindResult
{
    /// <summary>Gets the change kind's name.</summary>
    public required string Kind { get; init; }

    /// <summary>Gets what build 2 changes.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the phases: before, during, after.</summary>
    public required IReadOnlyList<DeployPhaseResult> Phases { get; init; }

    /// <summary>Gets up to five samples of the errors and wrong values.</summary>
    public required IReadOnlyList<string> Samples { get; init; }

    /// <summary>Gets the errors of every phase.</summary>
    public long Errors => Phases.Sum(p => p.Errors);

    /// <summary>Gets the wrong values of every phase.</summary>
    public long WrongValues => Phases.Sum(p => p.WrongValues);

    /// <summary>Gets the misses (unreadable items) of every phase.</summary>
    public long Misses => Phases.Sum(p => p.Misses);

    /// <summary>Gets the factory calls of every phase.</summary>
    public long FactoryCalls => Phases.Sum(p => p.FactoryCalls);

    /// <summary>Gets a phase's result.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its result.</returns>
    public DeployPhaseResult this[DeployPhase phase] => Phases[(int)phase];
}
