using System.CommandLine;
using CacheSerializer.LoadTest.Hybrid;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>hybrid</c> command: the HybridCache contenders side by side on issue 39's farm workload
/// (docs/loadtest.md, "Hybrid scenario").</summary>
internal static class HybridCommand
{
    private static readonly HybridSettings Defaults = new();

    private static readonly ScenarioOptions<HybridSettings> Common = new(
        Defaults,
        Defaults.AsShort(),
        "Web servers: each its own service provider with the contender's HybridCache.",
        "Concurrent callers on each web server, each calling HybridCache.GetOrCreateAsync on a random key in a loop.",
        "3 web servers x 4 callers on 20 keys; steady 1 s, tags 0.5 s, outage 0.7 s (frozen 0.25 s), deploy 0.6 s; faults: pressure 2 s, freezes 2.5 s, kills 0.5 s");

    private static readonly Option<int> KeysOption = new("--keys")
    {
        Description = "Keys (rows of the source of truth) the callers read.",
        DefaultValueFactory = _ => Defaults.Keys,
    };

    private static readonly Option<TimeSpan> UpdateEveryOption = LoadTestCommand.TimeOption(
        "--update-every", "How often a random row is updated and its key removed on a random web server: 25ms, 1s.", Defaults.UpdateEvery);

    private static readonly Option<TimeSpan> DurationOption = LoadTestCommand.TimeOption(
        "--duration", "How long the steady phase runs.", Defaults.Duration);

    private static readonly Option<int> TagsOption = new("--tags")
    {
        Description = "Tags of the tags phase's keys (key k has tag k mod this).",
        DefaultValueFactory = _ => Defaults.Tags,
    };

    private static readonly Option<TimeSpan> TagEveryOption = LoadTestCommand.TimeOption(
        "--tag-every", "How often, in the tags phase, a random tag's rows are updated and the tag removed on a random web server.", Defaults.TagEvery);

    private static readonly Option<TimeSpan> TagsDurationOption = LoadTestCommand.TimeOption(
        "--tags-duration", "How long the tags phase runs.", Defaults.TagsDuration);

    private static readonly Option<TimeSpan> OutageDurationOption = LoadTestCommand.TimeOption(
        "--outage-duration", "How long the outage phase runs (the L2 server is frozen a quarter of the way in).", Defaults.OutageDuration);

    private static readonly Option<TimeSpan> OutageForOption = LoadTestCommand.TimeOption(
        "--outage-for", "How long the L2 server (memcached or redis-server) stays frozen (SIGSTOP) in the outage phase.", Defaults.OutageFor);

    private static readonly Option<TimeSpan> DeployDurationOption = LoadTestCommand.TimeOption(
        "--deploy-duration", "How long the deploy phase runs (the web servers replaced one by one at even steps).", Defaults.DeployDuration);

    private static readonly Option<int> FaultsMemoryOption = new("--faults-memory")
    {
        Description = "Memory of each memcached node of the faults phase (-m), and of its redis-server (--maxmemory), in MB.",
        DefaultValueFactory = _ => Defaults.FaultMemoryMegabytes,
    };

    private static readonly Option<TimeSpan> PressureForOption = LoadTestCommand.TimeOption(
        "--pressure-for", "How long the faults phase's memory pressure step runs (its filler writes for three quarters of it).", Defaults.PressureFor);

    private static readonly Option<TimeSpan> FreezePastOption = LoadTestCommand.TimeOption(
        "--freeze-past", "How much longer than the client's operation timeout a server of the faults phase stays frozen.", Defaults.FreezePast);

    private static readonly Option<TimeSpan> KillForOption = LoadTestCommand.TimeOption(
        "--kill-for", "How long a killed server of the faults phase stays down before it is restarted, empty.", Defaults.KillFor);

    private static readonly Option<string?> PhasesOption = new("--phases")
    {
        Description = $"Comma-separated phases, run in this order (default: steady, tags, outage, deploy): {string.Join(", ", HybridSettings.PhaseNames)}. faults runs on servers of its own (3 memcached nodes, or a redis-server and its replica), last.",
        HelpName = "names",
    };

    private static readonly Option<string?> ContendersOption = new("--contenders")
    {
        Description = $"Comma-separated contenders, run in this order (default: all): {string.Join(", ", HybridSettings.ContenderNames)}.",
        HelpName = "names",
    };

    /// <summary>Builds the <c>hybrid</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create() => Common.CreateCommand(
        "hybrid",
        "The hybrid scenario: web servers x callers on HybridCache.GetOrCreateAsync through phases (steady removals, removals by tag, "
        + "an outage of the L2 server, a rolling deploy of another contract; on request faults on 3 nodes); counts per phase stale reads, factory calls per (key, version), "
        + "hits, L1 hits, reads per second, CPU and network bytes per read of the package's HybridCache "
        + "(Bounded, Strict), Microsoft's over memcached and over Redis, and FusionCache over Redis with its backplane (with and without its locker).",
        [KeysOption, UpdateEveryOption, DurationOption, TagsOption, TagEveryOption, TagsDurationOption, OutageDurationOption, OutageForOption, DeployDurationOption, FaultsMemoryOption, PressureForOption, FreezePastOption, KillForOption, PhasesOption, ContendersOption],
        RunAsync);

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A contender or phase name is unknown.</exception>
    public static HybridSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        HybridSettings settings = Common.Start(result);
        bool Given(Option option) => ScenarioOptions<HybridSettings>.Given(result, option);
        string? contenders = result.GetValue(ContendersOption);
        string? phases = result.GetValue(PhasesOption);
        return Common.Apply(result, settings with
        {
            Keys = Given(KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            UpdateEvery = Given(UpdateEveryOption) ? result.GetValue(UpdateEveryOption) : settings.UpdateEvery,
            Duration = Given(DurationOption) ? result.GetValue(DurationOption) : settings.Duration,
            Tags = Given(TagsOption) ? result.GetValue(TagsOption) : settings.Tags,
            TagEvery = Given(TagEveryOption) ? result.GetValue(TagEveryOption) : settings.TagEvery,
            TagsDuration = Given(TagsDurationOption) ? result.GetValue(TagsDurationOption) : settings.TagsDuration,
            OutageDuration = Given(OutageDurationOption) ? result.GetValue(OutageDurationOption) : settings.OutageDuration,
            OutageFor = Given(OutageForOption) ? result.GetValue(OutageForOption) : settings.OutageFor,
            DeployDuration = Given(DeployDurationOption) ? result.GetValue(DeployDurationOption) : settings.DeployDuration,
            FaultMemoryMegabytes = Given(FaultsMemoryOption) ? result.GetValue(FaultsMemoryOption) : settings.FaultMemoryMegabytes,
            PressureFor = Given(PressureForOption) ? result.GetValue(PressureForOption) : settings.PressureFor,
            FreezePast = Given(FreezePastOption) ? result.GetValue(FreezePastOption) : settings.FreezePast,
            KillFor = Given(KillForOption) ? result.GetValue(KillForOption) : settings.KillFor,
            Phases = ScenarioOptions<HybridSettings>.ListOr(phases, settings.Phases, HybridSettings.ParsePhase),
            Contenders = ScenarioOptions<HybridSettings>.ListOr(contenders, settings.Contenders, HybridSettings.ParseContender),
        });
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () => ToSettings(result),
            (settings, log, cancellationToken) => HybridRunner.RunAsync(settings, log, cancellationToken),
            HybridReportWriter.ToMarkdown,
            (report, settings) => HybridReportWriter.Save(report, settings.OutputDirectory),
            cancellationToken);
}
