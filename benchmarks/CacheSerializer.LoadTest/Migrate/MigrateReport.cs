using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>Everything a migration run measured, with what it ran on and its verdict: the JSON file is this record.</summary>
internal sealed record MigrateReport : ScenarioReport
{
    /// <summary>What the old web servers are: an emulation of EnyimMemcachedCore, said wherever the figures are.</summary>
    public const string EmulationNote =
        "The old web servers are an emulation, not EnyimMemcachedCore itself (it cannot be restored here): this package's "
        + "MemcachedClient placing keys as EnyimMemcachedCore's DefaultNodeLocator does (KeyPlacement.EnyimMemcachedCore), "
        + "writing DefaultTranscoder's exact bytes (the workloads' EnyimBsonTranscoder), behind EnyimMemcachedCore's failure "
        + "behaviour (MemcachedClient.cs, commit e383c4c): its Get/GetAsync catch an exception (Deserialize's included), log it "
        + "and return a miss (SuppressException = true, its default), its store catches a Serialize exception and returns false; "
        + "each such exception is counted as an exception on an old server. It reads as EnyimMemcachedCore does, with the binary "
        + "protocol's get (a get-or-create placeholder is a hit whose value is null: counted as a non-value), and stores and deletes "
        + "with the meta protocol (memcached stores the same key, flags and bytes either way).";

    /// <summary>Gets the settings of the run.</summary>
    public required MigrateSettings Settings { get; init; }

    /// <summary>Gets what the old web servers are (<see cref="EmulationNote"/>).</summary>
    public string Emulation => EmulationNote;

    /// <summary>Gets one result per path, in the order run.</summary>
    public required IReadOnlyList<MigratePathResult> Paths { get; init; }

    /// <summary>Gets the verdict: the Enyim-shaped path's targets, then the contrast's figures.</summary>
    public IReadOnlyList<MigrateCheck> Checks => MigrateTargets.Evaluate(Paths);

    /// <inheritdoc/>
    public override IEnumerable<IScenarioPartResult> PartResults() => Paths;

    /// <summary>Returns whether every target of the Enyim-shaped path is met (the contrast is run to fail, and only reported).</summary>
    /// <returns>Whether the run passed.</returns>
    public override bool Passed() => Checks.All(c => c.Passed is not false);
}
