using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using Spectre.Console;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The command line (System.CommandLine 2.0): options with --help, parsed into <see cref="LoadTestSettings"/>, then the run.</summary>
internal static class LoadTestCommand
{
    /// <summary>Exit code when every contender completed with zero errors and zero corruptions.</summary>
    public const int Success = 0;

    /// <summary>Exit code when a contender did not complete (errors, corruptions, or it could not store the values).</summary>
    public const int ContenderFailed = 1;

    /// <summary>Exit code for an invalid option.</summary>
    public const int InvalidOption = 2;

    /// <summary>Exit code when memcached is missing or did not start.</summary>
    public const int ServerUnavailable = 3;

    /// <summary>Exit code after Ctrl+C.</summary>
    public const int Cancelled = 130;

    /// <summary>Reports that the servers could not be had (the launcher's typed failure, for the main run and every
    /// scenario alike) and returns <see cref="ServerUnavailable"/>.</summary>
    /// <param name="ex">The failure; its message says what is missing and how to install it.</param>
    /// <returns>The exit code.</returns>
    public static async Task<int> ServerUnavailableAsync(ServerUnavailableException ex)
    {
        ArgumentNullException.ThrowIfNull(ex);
        await Console.Error.WriteLineAsync($"error: {ex.Message}").ConfigureAwait(false);
        return ServerUnavailable;
    }

    private static readonly LoadTestSettings Defaults = new();

    private static readonly Option<TimeSpan> DurationOption = TimeOption("--duration", "How long each contender's pass runs: seconds (30), or with a unit (90s, 2m), or hh:mm:ss.", Defaults.Duration);

    private static readonly Option<long?> OperationsOption = DescribedOption<long?>("--operations", "Operations per pass instead of a duration (gets and sets; a pass may overrun by one per user).", "count");

    private static readonly Option<int> UsersOption = DefaultedOption("--users", "Virtual users: concurrent async workers, each issuing one operation at a time.", Defaults.Users);

    private static readonly Option<double> ReadRatioOption = DefaultedOption("--read-ratio", "Share of operations that are gets (0 to 1); a get that misses is followed by a set (cache-aside).", Defaults.ReadRatio, "ratio");

    private static readonly Option<int> KeysOption = DefaultedOption("--keys", "Size of the key space; each key holds one shape of the mix.", Defaults.Keys);

    private static readonly Option<string?> ContendersOption = DescribedOption<string?>("--contenders", "Comma-separated contender names from the workloads catalog (default: this transcoder with its defaults, uncompressed and with LZ4, BSON, BinaryFormatter, BinaryFormatter+Deflate).", "names");

    private static readonly Option<int> NodesOption = DefaultedOption("--nodes", "Local memcached servers to start on free 127.0.0.1 ports; keys are spread by the client's ketama.", Defaults.Nodes);

    private static readonly Option<string?> ServersOption = DescribedOption<string?>("--servers", "Use running servers instead (host:port,...; loopback only; start them with -I 2m). Each pass flushes them.", "host:port,...");

    private static readonly Option<int> MemoryOption = DefaultedOption("--memory", "Memory of each started server in MB (memcached -m).", Defaults.MemoryMegabytes, "MB");

    private static readonly Option<ulong> SeedOption = DefaultedOption("--seed", "Seed of the key-to-shape assignment, the values and every user's choices.", Defaults.Seed);

    private static readonly Option<string> OutputOption = DefaultedOption("--output", "Directory for the JSON, Markdown and SVG results.", Defaults.OutputDirectory, "dir");

    private static readonly Option<LoadProfile> ProfileOption = DefaultedOption("--profile", "The mix: default (mostly small objects, a tail of large trees) or seed (the production report's shape: trees whose BinaryFormatter+Deflate items average about 1 MB; 64 keys, 8 users unless given).", LoadProfile.Default);

    private static readonly Option<TimeSpan?> KillNodeAtOption = new("--kill-node-at")
    {
        Description = "Fault mode: kill (SIGKILL) the last started server this far into each pass (10s, 1m); the results then show errors, misses and recovery second by second.",
        HelpName = "time",
        CustomParser = argument => ParseDuration(argument),
    };

    private static readonly Option<TimeSpan> RestartNodeAfterOption = TimeOption("--restart-node-after", "Fault mode: restart the killed server (empty) this long after the kill.", Defaults.RestartNodeAfter);

    private static readonly Option<bool> AutoEjectOption = DescribedOption<bool>("--auto-eject", "The client ejects a down server (AutoEject): its keys go to the live servers instead of missing.");

    private static readonly Option<bool> TlsOption = DescribedOption<bool>("--tls", "Encrypt every connection: the started servers serve TLS (memcached -Z) with a throwaway certificate made for the run, which the client validates; compare with a plaintext run for the cost of TLS.");

    private static readonly Option<bool> ShortOption = DescribedOption<bool>("--short", "Short mode, under a minute in all: 4 s per contender, 8 users, 200 keys (other options still apply).");

    /// <summary>Builds the root command.</summary>
    /// <returns>The command, ready for <c>Parse(args).InvokeAsync()</c>.</returns>
    public static RootCommand Create()
    {
        var root = new RootCommand(
            "CacheSerializer load test: the same cache workload once per contender against real memcached, side by side; "
            + "every value read is checked. Results go to the console and, as JSON, Markdown and SVG, to --output.");
        foreach (Option option in new Option[] { DurationOption, OperationsOption, UsersOption, ReadRatioOption, KeysOption, ContendersOption, NodesOption, ServersOption, MemoryOption, SeedOption, OutputOption, KillNodeAtOption, RestartNodeAfterOption, AutoEjectOption, TlsOption, ProfileOption, ShortOption })
        {
            root.Options.Add(option);
        }

        root.Subcommands.Add(FarmCommand.Create());
        root.Subcommands.Add(DeployCommand.Create());
        root.Subcommands.Add(MigrateCommand.Create());
        root.Subcommands.Add(HybridCommand.Create());
        root.Subcommands.Add(FloorCommand.Create());
        root.SetAction(RunAsync);
        return root;
    }

    /// <summary>Turns a parse result into settings: the profile's defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    public static LoadTestSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        LoadTestSettings profile = Defaults.ForProfile(result.GetValue(ProfileOption));
        LoadTestSettings settings = result.GetValue(ShortOption) ? profile.AsShort() : profile;
        bool Given(Option option) => result.GetResult(option) is { Implicit: false };
        return settings with
        {
            Duration = Given(DurationOption) ? result.GetValue(DurationOption) : settings.Duration,
            Operations = Given(OperationsOption) ? result.GetValue(OperationsOption) : settings.Operations,
            Users = Given(UsersOption) ? result.GetValue(UsersOption) : settings.Users,
            ReadRatio = Given(ReadRatioOption) ? result.GetValue(ReadRatioOption) : settings.ReadRatio,
            Keys = Given(KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            Contenders = SplitList(result.GetValue(ContendersOption)),
            Nodes = Given(NodesOption) ? result.GetValue(NodesOption) : settings.Nodes,
            Servers = SplitList(result.GetValue(ServersOption)),
            MemoryMegabytes = Given(MemoryOption) ? result.GetValue(MemoryOption) : settings.MemoryMegabytes,
            Seed = Given(SeedOption) ? result.GetValue(SeedOption) : settings.Seed,
            OutputDirectory = Given(OutputOption) ? result.GetValue(OutputOption)! : settings.OutputDirectory,
            KillNodeAt = Given(KillNodeAtOption) ? result.GetValue(KillNodeAtOption) : settings.KillNodeAt,
            RestartNodeAfter = Given(RestartNodeAfterOption) ? result.GetValue(RestartNodeAfterOption) : settings.RestartNodeAfter,
            AutoEject = result.GetValue(AutoEjectOption) || settings.AutoEject,
            Tls = result.GetValue(TlsOption) || settings.Tls,
        };
    }

    private static async Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken)
    {
        LoadTestSettings settings;
        try
        {
            settings = ToSettings(result);
            settings.Validate();
            _ = LoadTestRunner.SelectContenders(settings.Contenders);
            foreach (string server in settings.Servers)
            {
                ServerSet.CheckLoopback(server);
            }
        }
        catch (ArgumentException ex)
        {
            await Console.Error.WriteLineAsync($"error: {ex.Message}").ConfigureAwait(false);
            return InvalidOption;
        }

        bool live = SpectreProgressDisplay.IsSupported();
        IProgressDisplay display = live ? new SpectreProgressDisplay(AnsiConsole.Console) : new PlainProgressDisplay(Console.Out, TimeSpan.FromSeconds(5));
        LoadTestReport report;
        try
        {
            report = await LoadTestRunner.RunAsync(settings, display, cancellationToken).ConfigureAwait(false);
        }
        catch (ServerUnavailableException ex)
        {
            return await ServerUnavailableAsync(ex).ConfigureAwait(false);
        }

        if (live)
        {
            foreach (Table table in ReportWriter.ToTables(report))
            {
                AnsiConsole.Write(table);
            }
        }
        else
        {
            Console.WriteLine();
            Console.Write(ReportWriter.ToMarkdown(report));
        }

        foreach (PassResult pass in report.Passes.Where(p => !p.Completed))
        {
            Console.WriteLine($"{pass.Contender} did not complete: {pass.Failure}");
            foreach (string sample in ((IScenarioPartResult)pass).Samples)
            {
                Console.WriteLine($"  {sample}");
            }
        }

        foreach (string path in ReportWriter.Save(report, settings.OutputDirectory))
        {
            Console.WriteLine($"wrote {path}");
        }

        return cancellationToken.IsCancellationRequested ? Cancelled
            : report.Passed() ? Success
            : ContenderFailed;
    }

    private static IReadOnlyList<string> SplitList(string? text) =>
        string.IsNullOrWhiteSpace(text) ? [] : text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>Makes an option that takes a time, parsed by <see cref="ParseDuration"/>; also used by <see cref="FarmCommand"/>.</summary>
    /// <param name="name">The option's name.</param>
    /// <param name="description">Its help text.</param>
    /// <param name="defaultValue">Its value when not given.</param>
    /// <returns>The option.</returns>
    internal static Option<TimeSpan> TimeOption(string name, string description, TimeSpan defaultValue)
    {
        Option<TimeSpan> option = DefaultedOption(name, description, defaultValue, "time");
        option.CustomParser = ParseDuration;
        return option;
    }

    /// <summary>Makes an option without a default value.</summary>
    /// <typeparam name="T">The option's type.</typeparam>
    /// <param name="name">The option's name.</param>
    /// <param name="description">Its help text.</param>
    /// <param name="helpName">The name of its argument in --help, or <see langword="null"/> for the type's.</param>
    /// <returns>The option.</returns>
    private static Option<T> DescribedOption<T>(string name, string description, string? helpName = null) => new(name)
    {
        Description = description,
        HelpName = helpName,
    };

    /// <summary>Makes an option with a default value, shown in --help.</summary>
    /// <typeparam name="T">The option's type.</typeparam>
    /// <param name="name">The option's name.</param>
    /// <param name="description">Its help text.</param>
    /// <param name="defaultValue">Its value when not given.</param>
    /// <param name="helpName">The name of its argument in --help, or <see langword="null"/> for the type's.</param>
    /// <returns>The option.</returns>
    private static Option<T> DefaultedOption<T>(string name, string description, T defaultValue, string? helpName = null)
    {
        Option<T> option = DescribedOption<T>(name, description, helpName);
        option.DefaultValueFactory = _ => defaultValue;
        return option;
    }

    /// <summary>Parses a duration option: seconds (30), with a unit (500ms, 90s, 2m, 1h) or hh:mm:ss; also used by <see cref="FarmCommand"/>.</summary>
    /// <param name="argument">The option's argument.</param>
    /// <returns>The duration (an error is added to the argument when it is not one).</returns>
    internal static TimeSpan ParseDuration(ArgumentResult argument)
    {
        string text = argument.Tokens.Count > 0 ? argument.Tokens[0].Value.Trim() : string.Empty;
        (string number, double scale) = text.EndsWith("ms", StringComparison.OrdinalIgnoreCase) ? (text[..^2], 0.001)
            : text.EndsWith('s') ? (text[..^1], 1)
            : text.EndsWith('m') ? (text[..^1], 60)
            : text.EndsWith('h') ? (text[..^1], 3600)
            : (text, 1);
        if (double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) && double.IsFinite(value))
        {
            return TimeSpan.FromSeconds(value * scale);
        }

        if (TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out TimeSpan span))
        {
            return span;
        }

        argument.AddError($"{((OptionResult)argument.Parent!).Option.Name}: '{text}' is not a duration; use seconds (30), 90s, 2m or hh:mm:ss.");
        return default;
    }
}
