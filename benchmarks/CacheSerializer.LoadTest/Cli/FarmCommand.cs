using System.CommandLine;
using CacheSerializer.LoadTest.Farm;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>farm</c> command: the farm scenario of issue 17 (docs/loadtest.md, "Farm scenario").</summary>
internal static class FarmCommand
{
    private static readonly FarmSettings Defaults = new();

    private static readonly Option<int> ClientsOption = new("--clients")
    {
        Description = "Web servers: independent MemcachedClient instances, each with its own connections and in-process single flight.",
        DefaultValueFactory = _ => Defaults.Clients,
    };

    private static readonly Option<int> CallersOption = new("--callers")
    {
        Description = "Concurrent callers (requests in flight) on each web server, each reading a random hot key in a loop.",
        DefaultValueFactory = _ => Defaults.CallersPerClient,
    };

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

    private static readonly Option<int> NodesOption = new("--nodes")
    {
        Description = "Local memcached servers to start on free 127.0.0.1 ports; keys are spread by the client's ketama.",
        DefaultValueFactory = _ => Defaults.Nodes,
    };

    private static readonly Option<ulong> SeedOption = new("--seed")
    {
        Description = "Seed of every caller's choice of keys.",
        DefaultValueFactory = _ => Defaults.Seed,
    };

    private static readonly Option<string> OutputOption = new("--output")
    {
        Description = "Directory for the JSON and Markdown results.",
        HelpName = "dir",
        DefaultValueFactory = _ => Defaults.OutputDirectory,
    };

    private static readonly Option<bool> ShortOption = new("--short")
    {
        Description = "Short mode: 3 web servers x 20 callers, 2 hot keys expiring every second, 4 s per mode (other options still apply).",
    };

    /// <summary>Builds the <c>farm</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create()
    {
        var command = new Command(
            "farm",
            "The farm scenario: N web servers (independent clients) x callers on a few hot keys that expire on a schedule; "
            + "counts the factory calls per expiry of plain get/set, HybridCache (in-process protection) and GetOrCreateAsync (farm-wide).");
        foreach (Option option in new Option[] { ClientsOption, CallersOption, HotKeysOption, ExpireEveryOption, DurationOption, FactoryTimeOption, LockTimeoutOption, ModesOption, NodesOption, SeedOption, OutputOption, ShortOption })
        {
            command.Options.Add(option);
        }

        command.SetAction(RunAsync);
        return command;
    }

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A mode name is unknown.</exception>
    public static FarmSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        FarmSettings settings = result.GetValue(ShortOption) ? Defaults.AsShort() : Defaults;
        bool Given(Option option) => result.GetResult(option) is { Implicit: false };
        string? modes = result.GetValue(ModesOption);
        return settings with
        {
            Clients = Given(ClientsOption) ? result.GetValue(ClientsOption) : settings.Clients,
            CallersPerClient = Given(CallersOption) ? result.GetValue(CallersOption) : settings.CallersPerClient,
            HotKeys = Given(HotKeysOption) ? result.GetValue(HotKeysOption) : settings.HotKeys,
            ExpireEvery = Given(ExpireEveryOption) ? result.GetValue(ExpireEveryOption) : settings.ExpireEvery,
            Duration = Given(DurationOption) ? result.GetValue(DurationOption) : settings.Duration,
            FactoryTime = Given(FactoryTimeOption) ? result.GetValue(FactoryTimeOption) : settings.FactoryTime,
            LockTimeout = Given(LockTimeoutOption) ? result.GetValue(LockTimeoutOption) : settings.LockTimeout,
            Modes = string.IsNullOrWhiteSpace(modes) ? settings.Modes : [.. modes.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(FarmSettings.ParseMode)],
            Nodes = Given(NodesOption) ? result.GetValue(NodesOption) : settings.Nodes,
            Seed = Given(SeedOption) ? result.GetValue(SeedOption) : settings.Seed,
            OutputDirectory = Given(OutputOption) ? result.GetValue(OutputOption)! : settings.OutputDirectory,
        };
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () =>
            {
                FarmSettings settings = ToSettings(result);
                settings.Validate();
                return settings;
            },
            (settings, log, cancellationToken) => FarmRunner.RunAsync(settings, log, cancellationToken),
            FarmReportWriter.ToMarkdown,
            (report, settings) => FarmReportWriter.Save(report, settings.OutputDirectory),
            report => report.Modes.All(m => m.Errors == 0 && m.Corruptions == 0 && m.LostWrites is 0),
            cancellationToken);
}
