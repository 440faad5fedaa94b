using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>The result of one migration path: its phases, in the order run.</summary>
internal sealed record MigratePathResult : IScenarioPartResult
{
    /// <summary>Gets the path's name: enyim or ketama.</summary>
    public required string Path { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Path;

    /// <summary>Gets how the path's new web servers are configured.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the phases: warm-up, before, switch, after, then on the Enyim-shaped path flip and second-step.</summary>
    public required IReadOnlyList<MigratePhaseResult> Phases { get; init; }

    /// <summary>Gets up to five samples of each kind of what went wrong.</summary>
    public required IReadOnlyList<string> Samples { get; init; }

    /// <summary>Gets the exceptions on old and new web servers, every phase.</summary>
    public long Errors => Phases.Sum(p => p.OldServerExceptions + p.NewServerExceptions);

    /// <summary>Gets the wrong values of every phase.</summary>
    public long Corruptions => Phases.Sum(p => p.WrongValues);

    /// <summary>Gets the lost hits of every phase, or null when memcached evicted.</summary>
    public long? LostWrites => Phases.Any(p => p.LostHits is null) ? null : Phases.Sum(p => p.LostHits!.Value);

    /// <summary>Gets the non-values old web servers read, every phase.</summary>
    public long NonValues => Phases.Sum(p => p.NonValues);

    /// <summary>Gets the stale values of every phase.</summary>
    public long StaleValues => Phases.Sum(p => p.StaleValues);

    /// <summary>Gets the exceptions on old web servers, every phase.</summary>
    public long OldServerExceptions => Phases.Sum(p => p.OldServerExceptions);

    /// <summary>Gets the exceptions on new web servers, every phase.</summary>
    public long NewServerExceptions => Phases.Sum(p => p.NewServerExceptions);

    /// <summary>Gets a phase's result, or null when the path did not run it (the contrast has no second step).</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its result, or null.</returns>
    public MigratePhaseResult? this[MigratePhase phase] => Phases.FirstOrDefault(p => p.Phase == MigrateReportWriter.NameOf(phase));
}
