using CacheSerializer.LoadTest.Mix;

namespace CacheSerializer.LoadTest;

/// <summary>Everything one load-test run needs, as the command line gave it (defaults are the documented main job).</summary>
internal sealed record LoadTestSettings
{
    /// <summary>Gets the mix of values stored.</summary>
    /// <value><see cref="LoadProfile.Default"/>.</value>
    public LoadProfile Profile { get; init; } = LoadProfile.Default;

    /// <summary>
    /// Gets memcached's largest item (<c>-I</c>) and every transcoder's <c>MaxValueSize</c>: 2 MiB for the default profile
    /// (its largest BinaryFormatter tree is about 1.3 MB), 8 MiB for the seed profile (about 5 MB).
    /// </summary>
    public int MaxItemBytes => Profile == LoadProfile.Seed ? 8 * 1024 * 1024 : 2 * 1024 * 1024;

    /// <summary>Gets how long each contender's pass runs, unless <see cref="Operations"/> is set.</summary>
    /// <value>60 seconds.</value>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>Gets the number of operations of each pass; when set, it replaces <see cref="Duration"/>.</summary>
    /// <value>Null: the pass runs for <see cref="Duration"/>.</value>
    public long? Operations { get; init; }

    /// <summary>Gets the number of virtual users (concurrent async workers).</summary>
    /// <value>16.</value>
    public int Users { get; init; } = 16;

    /// <summary>Gets the share of operations that are gets (a miss is followed by a set, as cache-aside code does).</summary>
    /// <value>0.9.</value>
    public double ReadRatio { get; init; } = 0.9;

    /// <summary>Gets the number of keys.</summary>
    /// <value>500.</value>
    public int Keys { get; init; } = 500;

    /// <summary>Gets the contenders to run, by name; empty runs the default five.</summary>
    public IReadOnlyList<string> Contenders { get; init; } = [];

    /// <summary>Gets the number of local memcached servers to start when <see cref="Servers"/> is empty.</summary>
    /// <value>1.</value>
    public int Nodes { get; init; } = 1;

    /// <summary>Gets running servers (<c>host:port</c>, loopback only) to use instead of starting some.</summary>
    public IReadOnlyList<string> Servers { get; init; } = [];

    /// <summary>Gets the memory of each started server in megabytes (memcached <c>-m</c>).</summary>
    /// <value>1,024: the default key space stores about 120 MB with BinaryFormatter, so nothing is evicted.</value>
    public int MemoryMegabytes { get; init; } = 1024;

    /// <summary>Gets the seed of the key-to-shape assignment, the values and every user's choices.</summary>
    /// <value>20261122.</value>
    public ulong Seed { get; init; } = 20261122;

    /// <summary>Gets the directory where the JSON, Markdown and SVG results go.</summary>
    /// <value>./loadtest-results.</value>
    public string OutputDirectory { get; init; } = "loadtest-results";

    /// <summary>Gets when, into each pass, the fault mode kills (SIGKILL) the last of the servers the run started.</summary>
    /// <value>Null: no fault. The server is restarted <see cref="RestartNodeAfter"/> later (or before the next pass).</value>
    public TimeSpan? KillNodeAt { get; init; }

    /// <summary>Gets how long the killed server stays down before the fault mode restarts it (empty, as after a crash).</summary>
    /// <value>10 seconds.</value>
    public TimeSpan RestartNodeAfter { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets a value indicating whether the client ejects a down server (<c>MemcachedClientOptions.AutoEject</c>):
    /// its keys then go to the live servers instead of missing.</summary>
    public bool AutoEject { get; init; }

    /// <summary>Gets a value indicating whether the run encrypts every connection: it starts its servers with TLS
    /// (memcached <c>-Z</c>, a throwaway certificate made for the run) and the client validates them against the
    /// throwaway authority, so the figures show what TLS costs.</summary>
    /// <value><see langword="false"/>: plaintext.</value>
    public bool Tls { get; init; }

    /// <summary>Gets a value indicating whether this is the short mode (a few seconds per contender).</summary>
    public bool Short { get; init; }

    /// <summary>Returns the default settings of a profile.</summary>
    /// <param name="profile">The profile.</param>
    /// <returns>
    /// For the seed profile: 64 keys (about 200 MB in memcached for BSON) and 8 users (items of about 1 MB under
    /// BinaryFormatter + Deflate take a second of CPU each on this kind of machine; more users would only queue);
    /// otherwise these settings.
    /// </returns>
    public LoadTestSettings ForProfile(LoadProfile profile) =>
        profile == LoadProfile.Seed ? this with { Profile = profile, Keys = 64, Users = 8 } : this with { Profile = profile };

    /// <summary>Returns the settings of the short mode: under a minute in all, for the integration test and a quick look.</summary>
    /// <returns>Settings with 4-second passes, 8 users and 200 keys (the seed profile: 16 keys, 4 users); other values kept.</returns>
    public LoadTestSettings AsShort() => this with
    {
        Short = true,
        Duration = TimeSpan.FromSeconds(4),
        Operations = null,
        Users = Profile == LoadProfile.Seed ? 4 : 8,
        Keys = Profile == LoadProfile.Seed ? 16 : 200,
        MemoryMegabytes = Math.Min(MemoryMegabytes, Profile == LoadProfile.Seed ? 512 : 256),
    };

    /// <summary>Checks every value, naming the offending option.</summary>
    /// <exception cref="ArgumentException">A value is out of range.</exception>
    public void Validate()
    {
        Require(Duration > TimeSpan.Zero && Duration <= TimeSpan.FromHours(1), "--duration", $"is {Duration}; it must be above 0 and at most 1 hour");
        Require(Operations is null or (> 0 and <= 1_000_000_000), "--operations", $"is {Operations}; it must be between 1 and 1,000,000,000");
        Require(Users is >= 1 and <= 4096, "--users", $"is {Users}; it must be between 1 and 4,096");
        Require(ReadRatio is >= 0 and <= 1, "--read-ratio", $"is {ReadRatio}; it must be between 0 and 1");
        Require(Keys is >= 1 and <= 10_000_000, "--keys", $"is {Keys}; it must be between 1 and 10,000,000");
        Require(Nodes is >= 1 and <= 16, "--nodes", $"is {Nodes}; it must be between 1 and 16");
        Require(MemoryMegabytes is >= 64 and <= 65536, "--memory", $"is {MemoryMegabytes}; it must be between 64 and 65,536 (MB)");
        Require(OutputDirectory.Length > 0, "--output", "is empty");
        Require(Enum.IsDefined(Profile), "--profile", $"is {(int)Profile}; it must be default or seed");
        Require(KillNodeAt is null || (KillNodeAt > TimeSpan.Zero && (Operations is not null || KillNodeAt < Duration)), "--kill-node-at",
            $"is {KillNodeAt}; it must be above 0 and within the pass ({Duration})");
        Require(KillNodeAt is null || Servers.Count == 0, "--kill-node-at", "needs servers the run starts itself (--nodes); it never kills servers given with --servers");
        Require(!Tls || Servers.Count == 0, "--tls", "needs servers the run starts itself (--nodes), with a throwaway certificate the client trusts; servers given with --servers are reached in plaintext");
        Require(RestartNodeAfter > TimeSpan.Zero && RestartNodeAfter <= TimeSpan.FromHours(1), "--restart-node-after", $"is {RestartNodeAfter}; it must be above 0 and at most 1 hour");
    }

    private static void Require(bool condition, string option, string problem)
    {
        if (!condition)
        {
            throw new ArgumentException($"{option} {problem}.");
        }
    }
}
