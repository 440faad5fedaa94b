using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>Everything one run of the hybrid scenario needs (defaults are issue 39's workload): 4 web servers x 8
/// callers on 40 keys, 1 ms between a caller's calls, a factory of 5 to 20 ms, one row updated and removed every 25 ms;
/// per contender the phases steady (15 s), tags (8 s), outage (8 s, the L2 server frozen 2 s) and deploy (10 s).</summary>
internal sealed record HybridSettings() : ScenarioSettings(clients: 4, callersPerClient: 8, seed: 20261127)
{
    /// <summary>Gets the contender names on the command line, in the order of <see cref="HybridContender"/>.</summary>
    public static IReadOnlyList<string> ContenderNames { get; } = ["bounded", "strict", "microsoft-memcached", "microsoft-redis", "fusion-backplane", "fusion-locker"];

    /// <summary>Gets the phase names on the command line and in the report, in the order of <see cref="HybridPhase"/>.</summary>
    public static IReadOnlyList<string> PhaseNames { get; } = ["steady", "tags", "outage", "deploy", "faults"];

    /// <summary>Gets the memcached nodes of the faults phase.</summary>
    public static int FaultNodes => 3;

    /// <summary>Gets the package's client's operation timeout (its default, which the web servers keep): a freeze of the
    /// faults phase lasts longer, so that reads sent as a server froze time out.</summary>
    public static TimeSpan OperationTimeout { get; } = new MemcachedClientOptions().OperationTimeout;

    /// <summary>Gets the number of keys (rows of the source of truth) the callers read, each picked at random.</summary>
    /// <value>40.</value>
    public int Keys { get; init; } = 40;

    /// <summary>Gets the pause of a caller between two calls.</summary>
    /// <value>1 millisecond.</value>
    public TimeSpan CallGap { get; init; } = TimeSpan.FromMilliseconds(1);

    /// <summary>Gets the shortest factory call (the query of the source of truth); each call takes a time drawn evenly
    /// between this and <see cref="FactoryMax"/>.</summary>
    /// <value>5 milliseconds.</value>
    public TimeSpan FactoryMin { get; init; } = TimeSpan.FromMilliseconds(5);

    /// <summary>Gets the longest factory call.</summary>
    /// <value>20 milliseconds.</value>
    public TimeSpan FactoryMax { get; init; } = TimeSpan.FromMilliseconds(20);

    /// <summary>Gets how often one row, picked at random, is updated and its key removed (<c>RemoveAsync</c>) on a web
    /// server picked at random.</summary>
    /// <value>25 milliseconds.</value>
    public TimeSpan UpdateEvery { get; init; } = TimeSpan.FromMilliseconds(25);

    /// <summary>Gets the lifetime of an entry in both levels (<c>Expiration</c> and <c>LocalCacheExpiration</c>).</summary>
    /// <value>1 minute: longer than a contender's run, so only removals end an entry.</value>
    public TimeSpan EntryLifetime { get; init; } = TimeSpan.FromMinutes(1);

    /// <summary>Gets how often a caller's read skips L1 (<c>DisableLocalCacheRead</c> and <c>DisableLocalCacheWrite</c>):
    /// every n-th read, so that a stale value at L2 can be told from one at L1.</summary>
    /// <value>10.</value>
    public int L2ReadEvery { get; init; } = 10;

    /// <summary>Gets how long the steady phase runs.</summary>
    /// <value>15 seconds.</value>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>Gets the number of tags of the tags phase's keys: key k has tag k mod this (a tag beyond the keys has none).</summary>
    /// <value>8: 5 of the 40 keys per tag.</value>
    public int Tags { get; init; } = 8;

    /// <summary>Gets how often, in the tags phase, the rows of a random tag are updated and the tag removed
    /// (<c>RemoveByTagAsync</c>) on a random web server.</summary>
    /// <value>100 milliseconds: with 5 keys a tag, 50 rows updated a second, as many as the steady phase's 40.</value>
    public TimeSpan TagEvery { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets how long the tags phase runs.</summary>
    /// <value>8 seconds.</value>
    public TimeSpan TagsDuration { get; init; } = TimeSpan.FromSeconds(8);

    /// <summary>Gets how long the outage phase runs; its L2 server is frozen a quarter of the way in.</summary>
    /// <value>8 seconds.</value>
    public TimeSpan OutageDuration { get; init; } = TimeSpan.FromSeconds(8);

    /// <summary>Gets how long the L2 server stays frozen (SIGSTOP) in the outage phase.</summary>
    /// <value>2 seconds: as long as the package's client's operation timeout, so that a read sent as the server froze
    /// may just time out.</value>
    public TimeSpan OutageFor { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets how long the deploy phase runs: the web servers are replaced one by one at even steps, the first one
    /// step in, the last one step before the end.</summary>
    /// <value>10 seconds.</value>
    public TimeSpan DeployDuration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets the memory of each memcached node of the faults phase (<c>-m</c>), and of its redis-server
    /// (<c>--maxmemory</c>, evicting with <c>allkeys-lru</c>).</summary>
    /// <value>16 MB.</value>
    public int FaultMemoryMegabytes { get; init; } = 16;

    /// <summary>Gets how long the faults phase's memory pressure step runs; its filler writes for the first three quarters.</summary>
    /// <value>10 seconds.</value>
    public TimeSpan PressureFor { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets how much longer than <see cref="OperationTimeout"/> a server of the faults phase stays frozen.</summary>
    /// <value>1 second: frozen 3 s.</value>
    public TimeSpan FreezePast { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets how long a killed server of the faults phase stays down before it is restarted (empty).</summary>
    /// <value>1.5 seconds.</value>
    public TimeSpan KillFor { get; init; } = TimeSpan.FromSeconds(1.5);

    /// <summary>Gets how long each fault step of the faults phase runs before its fault.</summary>
    /// <value>1 second.</value>
    public TimeSpan FaultLead { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets how long each fault step of the faults phase runs after its fault is lifted (the server let run
    /// again or restarted): the reads of the hit rate after recovery.</summary>
    /// <value>2 seconds.</value>
    public TimeSpan FaultTail { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets the phases to run, in order.</summary>
    /// <value>steady, tags, outage, deploy: not faults, which starts servers of its own and takes about 50 s per
    /// contender.</value>
    public IReadOnlyList<HybridPhase> Phases { get; init; } = [HybridPhase.Steady, HybridPhase.Tags, HybridPhase.Outage, HybridPhase.Deploy];

    /// <summary>Gets the contenders to run, in order.</summary>
    /// <value>All six.</value>
    public IReadOnlyList<HybridContender> Contenders { get; init; } = Enum.GetValues<HybridContender>();

    /// <summary>Returns the settings of the short mode: a few seconds per contender, for the suite's test and a quick look.</summary>
    /// <returns>3 web servers x 4 callers on 20 keys; steady 1 s, tags 0.5 s (a tag removed every 50 ms), outage 0.7 s
    /// (frozen 0.25 s), deploy 0.6 s; faults: pressure 2 s, freezes 0.5 s past the operation timeout, kills 0.5 s,
    /// 0.3 s before each fault and 0.7 s after; other values kept.</returns>
    public HybridSettings AsShort() => this with
    {
        Short = true,
        Clients = 3,
        CallersPerClient = 4,
        Keys = 20,
        Duration = TimeSpan.FromSeconds(1),
        TagEvery = TimeSpan.FromMilliseconds(50),
        TagsDuration = TimeSpan.FromSeconds(0.5),
        OutageDuration = TimeSpan.FromSeconds(0.7),
        OutageFor = TimeSpan.FromSeconds(0.25),
        DeployDuration = TimeSpan.FromSeconds(0.6),
        PressureFor = TimeSpan.FromSeconds(2),
        FreezePast = TimeSpan.FromSeconds(0.5),
        KillFor = TimeSpan.FromSeconds(0.5),
        FaultLead = TimeSpan.FromSeconds(0.3),
        FaultTail = TimeSpan.FromSeconds(0.7),
    };

    /// <summary>Gets how long a server of the faults phase stays frozen: past the operation timeout.</summary>
    public TimeSpan FaultFreeze => OperationTimeout + FreezePast;

    /// <summary>Gets how long the faults phase runs for a contender on <paramref name="nodes"/> servers: the pressure step,
    /// a freeze step and a kill step per server, and the web server restart step (frozen one more
    /// <see cref="FreezePast"/>).</summary>
    /// <param name="nodes">The contender's servers in the phase: 3 memcached, or a redis-server and its replica.</param>
    /// <returns>The time, without starting the servers and web servers.</returns>
    public TimeSpan FaultsDuration(int nodes)
    {
        TimeSpan margins = FaultLead + FaultTail;
        return PressureFor + (nodes * (FaultFreeze + KillFor + (2 * margins))) + FaultFreeze + FreezePast + margins;
    }

    /// <summary>Returns how long a phase runs.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its duration.</returns>
    public TimeSpan DurationOf(HybridPhase phase) => phase switch
    {
        HybridPhase.Steady => Duration,
        HybridPhase.Tags => TagsDuration,
        HybridPhase.Outage => OutageDuration,
        HybridPhase.Deploy => DeployDuration,
        _ => FaultsDuration(FaultNodes),
    };

    /// <summary>Parses a phase name of the command line.</summary>
    /// <param name="name">One of <see cref="PhaseNames"/> (any case).</param>
    /// <returns>The phase.</returns>
    /// <exception cref="ArgumentException">The name is not a phase.</exception>
    public static HybridPhase ParsePhase(string name) => (HybridPhase)IndexOf(PhaseNames, name, "--phases", "a phase");

    /// <summary>Returns a phase's name on the command line and in the report.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(HybridPhase phase) => PhaseNames[(int)phase];

    /// <summary>Parses a contender name of the command line.</summary>
    /// <param name="name">One of <see cref="ContenderNames"/> (any case).</param>
    /// <returns>The contender.</returns>
    /// <exception cref="ArgumentException">The name is not a contender.</exception>
    public static HybridContender ParseContender(string name) => (HybridContender)IndexOf(ContenderNames, name, "--contenders", "a contender");

    /// <summary>Returns a contender's name on the command line and in the report.</summary>
    /// <param name="contender">The contender.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(HybridContender contender) => ContenderNames[(int)contender];

    /// <summary>Returns the index of a name of the command line among <paramref name="names"/> (any case).</summary>
    /// <exception cref="ArgumentException">It is none of them: the message names the option and the choices.</exception>
    private static int IndexOf(IReadOnlyList<string> names, string name, string option, string what)
    {
        int index = names.ToList().FindIndex(n => n.Equals(name.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? index : throw new ArgumentException($"{option}: '{name}' is not {what}; use {string.Join(", ", names)}.");
    }

    /// <inheritdoc/>
    protected override void ValidateScenario()
    {
        Require(Keys is >= 1 and <= 100_000, "--keys", $"is {Keys}; it must be between 1 and 100,000");
        Require(CallGap >= TimeSpan.Zero && CallGap <= TimeSpan.FromSeconds(1), "--call-gap", $"is {CallGap}; it must be from 0 to 1 second");
        Require(FactoryMin >= TimeSpan.Zero && FactoryMax >= FactoryMin && FactoryMax <= TimeSpan.FromSeconds(10), "--factory-time", $"is {FactoryMin} to {FactoryMax}; the shortest must be at least 0 and the longest from it to 10 seconds");
        Require(UpdateEvery >= TimeSpan.FromMilliseconds(1) && UpdateEvery <= TimeSpan.FromMinutes(1), "--update-every", $"is {UpdateEvery}; it must be between 1 ms and 1 minute");
        Require(EntryLifetime >= TimeSpan.FromSeconds(1) && EntryLifetime <= TimeSpan.FromDays(1), "--entry-lifetime", $"is {EntryLifetime}; it must be between 1 second and 1 day");
        Require(L2ReadEvery is >= 1 and <= 1_000_000, "--l2-read-every", $"is {L2ReadEvery}; it must be between 1 and 1,000,000");
        Require(Duration >= UpdateEvery && Duration <= TimeSpan.FromHours(1), "--duration", $"is {Duration}; it must be at least --update-every ({UpdateEvery}) and at most 1 hour");
        Require(Tags is >= 1 and <= 1000, "--tags", $"is {Tags}; it must be between 1 and 1,000");
        Require(TagEvery >= TimeSpan.FromMilliseconds(1) && TagEvery <= TimeSpan.FromMinutes(1), "--tag-every", $"is {TagEvery}; it must be between 1 ms and 1 minute");
        Require(TagsDuration >= TagEvery && TagsDuration <= TimeSpan.FromHours(1), "--tags-duration", $"is {TagsDuration}; it must be at least --tag-every ({TagEvery}) and at most 1 hour");
        Require(OutageFor > TimeSpan.Zero && OutageFor <= TimeSpan.FromMinutes(1), "--outage-for", $"is {OutageFor}; it must be more than 0 and at most 1 minute");
        Require(OutageDuration >= 2 * OutageFor && OutageDuration <= TimeSpan.FromHours(1), "--outage-duration", $"is {OutageDuration}; it must be at least twice --outage-for ({OutageFor}) and at most 1 hour");
        Require(DeployDuration >= TimeSpan.FromMilliseconds(100) && DeployDuration <= TimeSpan.FromHours(1), "--deploy-duration", $"is {DeployDuration}; it must be between 100 ms and 1 hour");
        Require(Phases.Count > 0 && Phases.Distinct().Count() == Phases.Count, "--phases", "is empty or names a phase twice");
        Require(!Phases.Contains(HybridPhase.Faults) || Phases[^1] == HybridPhase.Faults, "--phases", "names faults before another phase; faults runs on servers of its own, after the others");
        Require(FaultMemoryMegabytes is >= 8 and <= 1024, "--faults-memory", $"is {FaultMemoryMegabytes}; it must be between 8 and 1,024 (MB)");
        Require(PressureFor >= TimeSpan.FromSeconds(0.5) && PressureFor <= TimeSpan.FromHours(1), "--pressure-for", $"is {PressureFor}; it must be between 0.5 s and 1 hour");
        Require(FreezePast >= TimeSpan.FromMilliseconds(100) && FreezePast <= TimeSpan.FromMinutes(1), "--freeze-past", $"is {FreezePast}; it must be between 100 ms and 1 minute");
        Require(KillFor >= TimeSpan.FromMilliseconds(100) && KillFor <= TimeSpan.FromMinutes(1), "--kill-for", $"is {KillFor}; it must be between 100 ms and 1 minute");
        Require(Contenders.Count > 0, "--contenders", "is empty");
    }
}
