using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>Everything one run of the farm scenario needs, as the command line gave it (defaults are the documented run):
/// 5 web servers (the production farm of the seed report) x 200 callers, seed 20261124.</summary>
internal sealed record FarmSettings() : ScenarioSettings(clients: 5, callersPerClient: 200, seed: 20261124)
{
    /// <summary>Gets the mode names on the command line, in the order of <see cref="FarmMode"/>.</summary>
    public static IReadOnlyList<string> ModeNames { get; } = ["plain", "hybrid", "farm", "farm-stale"];

    /// <summary>Gets the number of hot keys; every caller reads one of them, picked at random, in every request.</summary>
    /// <value>4.</value>
    public int HotKeys { get; init; } = 4;

    /// <summary>Gets how often every hot key expires (is deleted, or in <see cref="FarmMode.FarmStale"/> invalidated).</summary>
    /// <value>2 seconds.</value>
    public TimeSpan ExpireEvery { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets how long each mode runs.</summary>
    /// <value>20 seconds: 10 expiries of every hot key.</value>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>Gets how long one factory call takes (the database query the cache saves).</summary>
    /// <value>50 milliseconds.</value>
    public TimeSpan FactoryTime { get; init; } = TimeSpan.FromMilliseconds(50);

    /// <summary>Gets the <c>LockTimeout</c> of the GetOrCreateAsync modes.</summary>
    /// <value>10 seconds (the client's default).</value>
    public TimeSpan LockTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets the modes to run, in order.</summary>
    /// <value>All four.</value>
    public IReadOnlyList<FarmMode> Modes { get; init; } = Enum.GetValues<FarmMode>();

    /// <summary>Returns the settings of the short mode: a few seconds per mode, for the integration test and a quick look.</summary>
    /// <returns>3 web servers x 20 callers, 2 hot keys expiring every second, 4 s per mode; other values kept.</returns>
    public FarmSettings AsShort() => this with
    {
        Short = true,
        Clients = 3,
        CallersPerClient = 20,
        HotKeys = 2,
        // 2 s between expiries, not 1: on a loaded 2-core machine (a full test suite beside it) a stale key's background
        // refresh once started over 1 s after its expiry and was charged to the next one (calls per expiry 1,1,0,2).
        ExpireEvery = TimeSpan.FromSeconds(2),
        Duration = TimeSpan.FromSeconds(8),
    };

    /// <summary>Parses a mode name of the command line.</summary>
    /// <param name="name">plain, hybrid, farm or farm-stale (any case).</param>
    /// <returns>The mode.</returns>
    /// <exception cref="ArgumentException">The name is not a mode.</exception>
    public static FarmMode ParseMode(string name)
    {
        int index = ModeNames.ToList().FindIndex(n => n.Equals(name.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? (FarmMode)index : throw new ArgumentException($"--modes: '{name}' is not a mode; use {string.Join(", ", ModeNames)}.");
    }

    /// <summary>Returns a mode's name on the command line and in the report.</summary>
    /// <param name="mode">The mode.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(FarmMode mode) => ModeNames[(int)mode];

    /// <inheritdoc/>
    protected override void ValidateScenario()
    {
        Require(HotKeys is >= 1 and <= 1000, "--hot-keys", $"is {HotKeys}; it must be between 1 and 1,000");
        Require(ExpireEvery >= TimeSpan.FromMilliseconds(100) && ExpireEvery <= TimeSpan.FromMinutes(10), "--expire-every", $"is {ExpireEvery}; it must be between 100 ms and 10 minutes");
        Require(Duration >= ExpireEvery && Duration <= TimeSpan.FromHours(1), "--duration", $"is {Duration}; it must be at least --expire-every ({ExpireEvery}) and at most 1 hour");
        Require(FactoryTime >= TimeSpan.Zero && FactoryTime < ExpireEvery, "--factory-time", $"is {FactoryTime}; it must be from 0 to below --expire-every ({ExpireEvery})");
        Require(LockTimeout > TimeSpan.Zero && LockTimeout <= TimeSpan.FromMinutes(10), "--lock-timeout", $"is {LockTimeout}; it must be above 0 and at most 10 minutes");
        Require(Modes.Count > 0, "--modes", "is empty");
    }
}
