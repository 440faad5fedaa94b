using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>Everything one run of the hybrid scenario needs (defaults are issue 39's workload): 4 web servers x 8
/// callers on 40 keys, 1 ms between a caller's calls, a factory of 5 to 20 ms, one row updated and removed every 25 ms;
/// per contender the phases steady (15 s), tags (8 s), outage (8 s, the L2 server frozen 2 s) and deploy (10 s).</summary>
internal sealed record HybridSettings() : ScenarioSettings(clients: 4, callersPerClient: 8, seed: 20261127)
{
    /// <summary>Gets the contender names on the command line, in the order of <see cref="HybridContender"/>.</summary>
    public static IReadOnlyList<string> ContenderNames { get; } = ["bounded", "strict", "microsoft-memcached", "microsoft-redis", "fusion-backplane", "fusion-locker"];

    /// <summary>Gets the phase names on the command line and in the report, in the order of <see cref="HybridPhase"/>.</summary>
    public static IReadOnlyList<string> PhaseNames { get; } = ["steady", "tags", "outage", "deploy"];

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

    /// <summary>Gets the phases to run, in order.</summary>
    /// <value>All four.</value>
    public IReadOnlyList<HybridPhase> Phases { get; init; } = Enum.GetValues<HybridPhase>();

    /// <summary>Gets the contenders to run, in order.</summary>
    /// <value>All six.</value>
    public IReadOnlyList<HybridContender> Contenders { get; init; } = Enum.GetValues<HybridContender>();

    /// <summary>Returns the settings of the short mode: a few seconds per contender, for the suite's test and a quick look.</summary>
    /// <returns>3 web servers x 4 callers on 20 keys; steady 1 s, tags 0.5 s (a tag removed every 50 ms), outage 0.7 s
    /// (frozen 0.25 s), deploy 0.6 s; other values kept.</returns>
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
    };

    /// <summary>Returns how long a phase runs.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its duration.</returns>
    public TimeSpan DurationOf(HybridPhase phase) => phase switch
    {
        HybridPhase.Steady => Duration,
        HybridPhase.Tags => TagsDuration,
        HybridPhase.Outage => OutageDuration,
        _ => DeployDuration,
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
        Require(Contenders.Count > 0, "--contenders", "is empty");
    }
}
