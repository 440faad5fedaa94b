namespace CacheSerializer.LoadTest.Farm;

/// <summary>Everything one run of the farm scenario needs, as the command line gave it (defaults are the documented run).</summary>
internal sealed record FarmSettings
{
    /// <summary>Gets the mode names on the command line, in the order of <see cref="FarmMode"/>.</summary>
    public static IReadOnlyList<string> ModeNames { get; } = ["plain", "hybrid", "farm", "farm-stale"];

    /// <summary>Gets the number of web servers: independent <c>MemcachedClient</c> instances, each with its own connections.</summary>
    /// <value>5, the production farm of the seed report.</value>
    public int Clients { get; init; } = 5;

    /// <summary>Gets the concurrent callers on each web server (requests in flight), each reading hot keys in a loop.</summary>
    /// <value>200.</value>
    public int CallersPerClient { get; init; } = 200;

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

    /// <summary>Gets the number of local memcached servers to start; keys are spread by the client's ketama.</summary>
    /// <value>1.</value>
    public int Nodes { get; init; } = 1;

    /// <summary>Gets the seed of every caller's choice of keys.</summary>
    /// <value>20261124.</value>
    public ulong Seed { get; init; } = 20261124;

    /// <summary>Gets the directory where the JSON and Markdown results go.</summary>
    /// <value>./loadtest-results.</value>
    public string OutputDirectory { get; init; } = "loadtest-results";

    /// <summary>Gets a value indicating whether this is the short mode.</summary>
    public bool Short { get; init; }

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

    /// <summary>Checks every value, naming the offending option.</summary>
    /// <exception cref="ArgumentException">A value is out of range.</exception>
    public void Validate()
    {
        Require(Clients is >= 1 and <= 64, "--clients", $"is {Clients}; it must be between 1 and 64");
        Require(CallersPerClient is >= 1 and <= 4096, "--callers", $"is {CallersPerClient}; it must be between 1 and 4,096");
        Require(HotKeys is >= 1 and <= 1000, "--hot-keys", $"is {HotKeys}; it must be between 1 and 1,000");
        Require(ExpireEvery >= TimeSpan.FromMilliseconds(100) && ExpireEvery <= TimeSpan.FromMinutes(10), "--expire-every", $"is {ExpireEvery}; it must be between 100 ms and 10 minutes");
        Require(Duration >= ExpireEvery && Duration <= TimeSpan.FromHours(1), "--duration", $"is {Duration}; it must be at least --expire-every ({ExpireEvery}) and at most 1 hour");
        Require(FactoryTime >= TimeSpan.Zero && FactoryTime < ExpireEvery, "--factory-time", $"is {FactoryTime}; it must be from 0 to below --expire-every ({ExpireEvery})");
        Require(LockTimeout > TimeSpan.Zero && LockTimeout <= TimeSpan.FromMinutes(10), "--lock-timeout", $"is {LockTimeout}; it must be above 0 and at most 10 minutes");
        Require(Modes.Count > 0, "--modes", "is empty");
        Require(Nodes is >= 1 and <= 16, "--nodes", $"is {Nodes}; it must be between 1 and 16");
        Require(OutputDirectory.Length > 0, "--output", "is empty");
    }

    private static void Require(bool condition, string option, string problem)
    {
        if (!condition)
        {
            throw new ArgumentException($"{option} {problem}.");
        }
    }
}
