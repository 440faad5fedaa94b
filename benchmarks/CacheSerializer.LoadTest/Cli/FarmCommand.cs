using System.CommandLine;
using CacheSerializer.LoadTest.Farm;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>farm</c> command: the farm scenario of issue 17 (docs/loadtest.md, "Farm scenario").</summary>
internal static class FarmCommand
{
    private static readonly FarmSettings Defaults = new();

    private static readonly ScenarioOptions<FarmSettings> Common = new(
        Defaults,
        Defaults.AsShort(),
        "Web servers: independent MemcachedClient instances, each with its own connections and in-process single flight.",
        "Concurrent callers (requests in flight) on each web server, each reading a random hot key in a loop.",
        "3 web servers x 20 callers, 2 hot keys expiring every 2 s, 8 s per mode");

    private static readonly Option<int> HotKeysOption = new("--hot-keys")
    {
        Description = "Hot keys the callers read.",
        DefaultValueFactory = _ => Defaults.HotKeys,
    };

    private static readonly Option<TimeSpan> ExpireEveryOption = LoadTestCommand.TimeOption(
        "--expire-every", "How often every hot key expires (deleted; invalidated in farm-stale): 2s, 500ms, hh:mm:ss.", Defaults.ExpireEvery);

    private static readonly Option<TimeSpan> DurationOption = LoadTestCommand.TimeOption(
        "--duration", "How long each mode runs.", Defaults.Duration);

    private static readonly Option<TimeSpan> FactoryTimeOption = LoadTestCommand.TimeOption(
        "--factory-time", "How long one factory call (the database query) takes.", Defaults.FactoryTime);

    private static readonly Option<TimeSpan> LockTimeoutOption = LoadTestCommand.TimeOption(
        "--lock-timeout", "GetOrCreateOptions.LockTimeout of the farm modes: how long a caller waits for another's factory.", Defaults.LockTimeout);

    private static readonly Option<string?> ModesOption = new("--modes")
    {
        Description = $"Comma-separated modes, run in this order (default: all): {string.Join(", ", FarmSettings.ModeNames)}.",
        HelpName = "names",
    };

    /// <summary>Builds the <c>farm</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create() => Common.CreateCommand(
        "farm",
        "The farm scenario: N web servers (independent clients) x callers on a few hot keys that expire on a schedule; "
        + "counts the factory calls per expiry of plain get/set, HybridCache (in-process protection) and GetOrCreateAsync (farm-wide).",
        [HotKeysOption, ExpireEveryOption, DurationOption, FactoryTimeOption, LockTimeoutOption, ModesOption],
        RunAsync);

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A mode name is unknown.</exception>
    public static FarmSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        FarmSettings settings = Common.Start(result);
        bool Given(Option option) => ScenarioOptions<FarmSettings>.Given(result, option);
        string? modes = result.GetValue(ModesOption);
        return Common.Apply(result, settings with
        {
            HotKeys = Given(HotKeysOption) ? result.GetValue(HotKeysOption) : settings.HotKeys,
            ExpireEvery = Given(ExpireEveryOption) ? result.GetValue(ExpireEveryOption) : settings.ExpireEvery,
            Duration = Given(DurationOption) ? result.GetValue(DurationOption) : settings.Duration,
            FactoryTime = Given(FactoryTimeOption) ? result.GetValue(FactoryTimeOption) : settings.FactoryTime,
            LockTimeout = Given(LockTimeoutOption) ? result.GetValue(LockTimeoutOption) : settings.LockTimeout,
            Modes = ScenarioOptions<FarmSettings>.ListOr(modes, settings.Modes, FarmSettings.ParseMode),
        });
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () => ToSettings(result),
            (settings, log, cancellationToken) => FarmRunner.RunAsync(settings, log, cancellationToken),
            FarmReportWriter.ToMarkdown,
            (report, settings) => FarmReportWriter.Save(report, settings.OutputDirectory),
            cancellationToken);
}
