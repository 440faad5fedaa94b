using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Everything one run of the rolling-deploy scenario needs, as the command line gave it (defaults are the
/// documented run): 4 web servers, switched to build 2 one by one, x 8 callers, seed 20261125.</summary>
internal sealed record DeploySettings() : ScenarioSettings(clients: 4, callersPerClient: 8, seed: 20261125)
{
    /// <summary>Gets the change kind names on the command line, in the order of <see cref="ChangeKind"/>.</summary>
    public static IReadOnlyList<string> KindNames { get; } = ["none", "member-added", "member-retyped", "subtype-removed"];

    /// <summary>Gets the number of keys the callers read; each holds one value, made from the key by the factory.</summary>
    /// <value>200.</value>
    public int Keys { get; init; } = 200;

    /// <summary>Gets the time between two steps of the deploy: before the first switch, between switches, and after the last.</summary>
    /// <value>2 seconds: with 4 web servers, 2 s before, 6 s during and 2 s after the deploy, 10 s per change kind.</value>
    public TimeSpan Step { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets how often a caller updates its key instead of reading it: every Nth operation changes the key's
    /// row in the source of truth, then deletes the key or overwrites it with the new version (alternately), from both
    /// builds; 0: no updates.</summary>
    /// <value>20: 5 % of the operations.</value>
    public int UpdateEvery { get; init; } = 20;

    /// <summary>Gets the API names on the command line, in the order of <see cref="DeployApi"/>.</summary>
    public static IReadOnlyList<string> ApiNames { get; } = ["cache-aside", "get-or-create", "hybrid"];

    /// <summary>Gets how the web servers read through the cache.</summary>
    /// <value><see cref="DeployApi.CacheAside"/>: the README's pattern.</value>
    public DeployApi Api { get; init; } = DeployApi.CacheAside;

    /// <summary>Gets whether a cache-aside fill overwrites the key (<c>SetAsync</c>) instead of adding it: the other
    /// build's item is replaced, so no build copy is ever made. Not on the command line: the contrast the tests run to
    /// show the deploy's bounds tell copies from none.</summary>
    /// <value>False: fills add, as the README's pattern does.</value>
    public bool FillsOverwrite { get; init; }

    /// <summary>Gets the change kinds to deploy, in order.</summary>
    /// <value>All four.</value>
    public IReadOnlyList<ChangeKind> Kinds { get; init; } = Enum.GetValues<ChangeKind>();

    /// <summary>Gets how long one change kind runs: a step before the deploy, one per switch after the first, one after.</summary>
    public TimeSpan DurationPerKind => Step * (Clients + 1);

    /// <summary>Returns the settings of the short mode: a few seconds per change kind, for the integration test and a quick look.</summary>
    /// <returns>3 web servers x 4 callers, 100 keys, 600 ms per step (2.4 s per kind); other values kept.</returns>
    public DeploySettings AsShort() => this with
    {
        Short = true,
        Clients = 3,
        CallersPerClient = 4,
        Keys = 100,
        Step = TimeSpan.FromMilliseconds(600),
    };

    /// <summary>Parses a change kind name of the command line.</summary>
    /// <param name="name">none, member-added, member-retyped or subtype-removed (any case).</param>
    /// <returns>The kind.</returns>
    /// <exception cref="ArgumentException">The name is not a change kind.</exception>
    public static ChangeKind ParseKind(string name)
    {
        int index = KindNames.ToList().FindIndex(n => n.Equals(name.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? (ChangeKind)index : throw new ArgumentException($"--kinds: '{name}' is not a change kind; use {string.Join(", ", KindNames)}.");
    }

    /// <summary>Parses an API name of the command line.</summary>
    /// <param name="name">cache-aside, get-or-create or hybrid (any case).</param>
    /// <returns>The API.</returns>
    /// <exception cref="ArgumentException">The name is not an API.</exception>
    public static DeployApi ParseApi(string name)
    {
        int index = ApiNames.ToList().FindIndex(n => n.Equals(name.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? (DeployApi)index : throw new ArgumentException($"--api: '{name}' is not an API; use {string.Join(", ", ApiNames)}.");
    }

    /// <summary>Returns an API's name on the command line and in the report.</summary>
    /// <param name="api">The API.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(DeployApi api) => ApiNames[(int)api];

    /// <summary>Returns a change kind's name on the command line and in the report.</summary>
    /// <param name="kind">The kind.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(ChangeKind kind) => KindNames[(int)kind];

    /// <inheritdoc/>
    protected override void ValidateScenario()
    {
        Require(Keys is >= 1 and <= 1_000_000, "--keys", $"is {Keys}; it must be between 1 and 1,000,000");
        Require(Step >= TimeSpan.FromMilliseconds(100) && Step <= TimeSpan.FromMinutes(10), "--step", $"is {Step}; it must be between 100 ms and 10 minutes");
        Require(Kinds.Count > 0, "--kinds", "is empty");
        Require(UpdateEvery is 0 or (>= 2 and <= 1_000_000), "--update-every", $"is {UpdateEvery}; it must be 0 (no updates) or between 2 and 1,000,000");
    }
}
