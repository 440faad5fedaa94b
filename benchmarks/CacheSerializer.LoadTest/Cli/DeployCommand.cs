using System.CommandLine;
using CacheSerializer.LoadTest.Deploy;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>deploy</c> command: the rolling-deploy scenario of issue 24 (docs/loadtest.md, "Rolling deploy").</summary>
internal static class DeployCommand
{
    private static readonly DeploySettings Defaults = new();

    private static readonly Option<int> ClientsOption = new("--clients")
    {
        Description = "Web servers: independent MemcachedClient instances, switched from build 1 to build 2 one by one.",
        DefaultValueFactory = _ => Defaults.Clients,
    };

    private static readonly Option<int> CallersOption = new("--callers")
    {
        Description = "Concurrent callers on each web server, each running get-or-load on a random key in a loop.",
        DefaultValueFactory = _ => Defaults.CallersPerClient,
    };

    private static readonly Option<int> KeysOption = new("--keys")
    {
        Description = "Keys the callers read; all stored by build 1 before the deploy.",
        DefaultValueFactory = _ => Defaults.Keys,
    };

    private static readonly Option<TimeSpan> StepOption = LoadTestCommand.TimeOption(
        "--step", "Time before the first switch, between two switches, and after the last: 2s, 500ms, hh:mm:ss.", Defaults.Step);

    private static readonly Option<string?> KindsOption = new("--kinds")
    {
        Description = $"Comma-separated change kinds, deployed in this order (default: all): {string.Join(", ", DeploySettings.KindNames)}.",
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
        Description = "Short mode: 3 web servers x 4 callers, 100 keys, 600 ms per step (other options still apply).",
    };

    /// <summary>Builds the <c>deploy</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create()
    {
        var command = new Command(
            "deploy",
            "The rolling-deploy scenario: N web servers under load switch one by one from build 1 to build 2 of the models, "
            + "for each change kind; counts errors, corruptions, lost writes, unreadable items by reason, hit rate before, during and after, and factory calls.");
        foreach (Option option in new Option[] { ClientsOption, CallersOption, KeysOption, StepOption, KindsOption, NodesOption, SeedOption, OutputOption, ShortOption })
        {
            command.Options.Add(option);
        }

        command.SetAction(RunAsync);
        return command;
    }

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A change kind name is unknown.</exception>
    public static DeploySettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        DeploySettings settings = result.GetValue(ShortOption) ? Defaults.AsShort() : Defaults;
        bool Given(Option option) => result.GetResult(option) is { Implicit: false };
        string? kinds = result.GetValue(KindsOption);
        return settings with
        {
            Clients = Given(ClientsOption) ? result.GetValue(ClientsOption) : settings.Clients,
            CallersPerClient = Given(CallersOption) ? result.GetValue(CallersOption) : settings.CallersPerClient,
            Keys = Given(KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            Step = Given(StepOption) ? result.GetValue(StepOption) : settings.Step,
            Kinds = string.IsNullOrWhiteSpace(kinds) ? settings.Kinds : [.. kinds.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(DeploySettings.ParseKind)],
            Nodes = Given(NodesOption) ? result.GetValue(NodesOption) : settings.Nodes,
            Seed = Given(SeedOption) ? result.GetValue(SeedOption) : settings.Seed,
            OutputDirectory = Given(OutputOption) ? result.GetValue(OutputOption)! : settings.OutputDirectory,
        };
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () =>
            {
                DeploySettings settings = ToSettings(result);
                settings.Validate();
                return settings;
            },
            (settings, log, cancellationToken) => DeployRunner.RunAsync(settings, log, cancellationToken),
            report => DeployReportWriter.ToMarkdown(report) + string.Concat(
                report.Kinds.Where(k => k.Samples.Count > 0).Select(k => $"{k.Kind}: {string.Join("; ", k.Samples)}{Environment.NewLine}")),
            (report, settings) => DeployReportWriter.Save(report, settings.OutputDirectory),
            report => report.Kinds.All(k => k.Errors == 0 && k.Corruptions == 0 && k.LostWrites is 0),
            cancellationToken);
}
