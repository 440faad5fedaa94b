using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>What one contender of the hybrid scenario measured, phase by phase.</summary>
internal sealed record HybridContenderResult : IScenarioPartResult
{
    /// <summary>Gets the contender's name (bounded, strict, microsoft-memcached, ...).</summary>
    public required string Contender { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Contender;

    /// <summary>Gets what the contender is, in words.</summary>
    public required string Description { get; init; }

    /// <summary>Gets one result per phase, in the order run.</summary>
    public required IReadOnlyList<HybridPhaseResult> Phases { get; init; }

    /// <summary>Gets the exceptions of every phase.</summary>
    public long Errors => Phases.Sum(p => p.Errors);

    /// <summary>Gets the corrupt values of every phase.</summary>
    public long Corruptions => Phases.Sum(p => p.Corruptions);

    /// <summary>Gets null: this scenario counts factory calls per version, not lost writes.</summary>
    public long? LostWrites => null;

    /// <summary>Gets a few error and corruption messages, each prefixed with its phase.</summary>
    public IReadOnlyList<string> Samples => [.. Phases.SelectMany(p => p.Samples.Select(s => $"{p.Phase}: {s}"))];

    /// <summary>Returns the result of a phase, or null when it did not run.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>The result.</returns>
    public HybridPhaseResult? Phase(HybridPhase phase) => Phases.FirstOrDefault(p => p.Phase == HybridSettings.NameOf(phase));
}
