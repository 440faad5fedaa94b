using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>Everything one run of the migration scenario needs, as the command line gave it (defaults are the documented
/// run): 4 web servers x 8 callers on 3 memcached servers, 2,000 keys, a step every 4 s, one update in 20 operations.</summary>
internal sealed record MigrateSettings() : ScenarioSettings(clients: 4, callersPerClient: 8, seed: 20261127, nodes: 3)
{
    /// <summary>Gets the path names on the command line, in the order of <see cref="MigratePath"/>.</summary>
    public static IReadOnlyList<string> PathNames { get; } = ["enyim", "ketama"];

    /// <summary>Gets the number of keys: each holds one user's folder tree (<see cref="TreeEntries"/> entries), versioned
    /// by the scenario's source of truth.</summary>
    /// <value>2,000.</value>
    public int Keys { get; init; } = 2000;

    /// <summary>Gets the time between two steps: before the first switch, between switches, after the last (and the same
    /// for the second step's flips).</summary>
    /// <value>4 seconds: with 4 web servers, 37 s for the Enyim-shaped path and 21 s for the contrast.</value>
    public TimeSpan Step { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>Gets how often a caller updates its key instead of reading it: every Nth operation, alternately a delete
    /// and an overwrite. A fixed share (not a random one) keeps the misses of every phase at the same rate.</summary>
    /// <value>20: 5 % of the operations are updates, half of them deletes.</value>
    public int UpdateEvery { get; init; } = 20;

    /// <summary>Gets the paths to run, in order.</summary>
    /// <value>Both: the Enyim-shaped path, then the contrast.</value>
    public IReadOnlyList<MigratePath> Paths { get; init; } = Enum.GetValues<MigratePath>();

    /// <summary>Gets the number of entries of every cached folder tree (the workloads' <c>UserFolderTree</c>).</summary>
    /// <value>10: about 3.2 KB as BSON, 1.2 KB as this package's protobuf (compressed).</value>
    public int TreeEntries { get; init; } = 10;

    /// <summary>Gets how long the load runs before the "before" phase is counted: the cache starts full, and reaches the
    /// steady state of its misses once the keys deleted since have been read again.</summary>
    public TimeSpan WarmUp => Step / 4;

    /// <summary>Returns the settings of the short mode: a few seconds per phase, for the integration test and a quick look.</summary>
    /// <returns>3 web servers x 4 callers, 500 keys, 1.5 s per step; other values kept.</returns>
    public MigrateSettings AsShort() => this with
    {
        Short = true,
        Clients = 3,
        CallersPerClient = 4,
        Keys = 500,
        Step = TimeSpan.FromMilliseconds(1500),
    };

    /// <summary>Returns how long a path runs: the warm-up, a step before, one per switch after the first, one after; and
    /// on the Enyim-shaped path the same again for the second step.</summary>
    /// <param name="path">The path.</param>
    /// <returns>Its duration.</returns>
    public TimeSpan Duration(MigratePath path) => WarmUp + (Step * (path == MigratePath.Enyim ? (2 * Clients) + 1 : Clients + 1));

    /// <summary>Parses a path name of the command line.</summary>
    /// <param name="name">enyim or ketama (any case).</param>
    /// <returns>The path.</returns>
    /// <exception cref="ArgumentException">The name is not a path.</exception>
    public static MigratePath ParsePath(string name)
    {
        int index = PathNames.ToList().FindIndex(n => n.Equals(name.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? (MigratePath)index : throw new ArgumentException($"--paths: '{name}' is not a path; use {string.Join(", ", PathNames)}.");
    }

    /// <summary>Returns a path's name on the command line and in the report.</summary>
    /// <param name="path">The path.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(MigratePath path) => PathNames[(int)path];

    /// <inheritdoc/>
    protected override void ValidateScenario()
    {
        Require(Keys is >= 1 and <= 1_000_000, "--keys", $"is {Keys}; it must be between 1 and 1,000,000");
        Require(Step >= TimeSpan.FromMilliseconds(100) && Step <= TimeSpan.FromMinutes(10), "--step", $"is {Step}; it must be between 100 ms and 10 minutes");
        Require(UpdateEvery is >= 2 and <= 1_000_000, "--update-every", $"is {UpdateEvery}; it must be between 2 and 1,000,000");
        Require(Paths.Count > 0, "--paths", "is empty");
    }
}
