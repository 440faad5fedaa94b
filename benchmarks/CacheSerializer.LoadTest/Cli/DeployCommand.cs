using System.CommandLine;
using CacheSerializer.LoadTest.Deploy;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>deploy</c> command: the rolling-deploy scenario of issue 24 (docs/loadtest.md, "Rolling deploy").</summary>
internal static class DeployCommand
{
    private static readonly DeploySettings Defaults = new();

    private static readonly ScenarioOptions<DeploySettings> Common = new(
        Defaults,
        Defaults.AsShort(),
        "Web servers: independent MemcachedClient instances, switched from build 1 to build 2 one by one.",
        "Concurrent callers on each web server, each running get-or-load on a random key in a loop.",
        "3 web servers x 4 callers, 100 keys, 600 ms per step");

    private static readonly Option<int> KeysOption = new("--keys")
    {
        Description = "Keys the callers read; all stored by build 1 before the deploy.",
        DefaultValueFactory = _ => Defaults.Keys,
    };

    private static readonly Option<TimeSpan> StepOption = LoadTestCommand.TimeOption(
        "--step", "Time before the first switch, between two switches, and after the last: 2s, 500ms, hh:mm:ss.", Defaults.Step);

    private static readonly Option<int> UpdateEveryOption = new("--update-every")
    {
        Description = "Every Nth operation of a caller updates its key (a new version in the source of truth, then a delete or an overwrite, alternately); 0: none.",
        DefaultValueFactory = _ => Defaults.UpdateEvery,
    };

    private static readonly Option<string?> KindsOption = new("--kinds")
    {
        Description = $"Comma-separated change kinds, deployed in this order (default: all): {string.Join(", ", DeploySettings.KindNames)}.",
        HelpName = "names",
    };

    private static readonly Option<string?> ApiOption = new("--api")
    {
        Description = $"How the web servers read through the cache: {string.Join(", ", DeploySettings.ApiNames)} (default: {DeploySettings.NameOf(Defaults.Api)}, the README's GetAsync then AddAsync).",
        HelpName = "name",
    };

    /// <summary>Builds the <c>deploy</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create() => Common.CreateCommand(
        "deploy",
        "The rolling-deploy scenario: N web servers under load switch one by one from build 1 to build 2 of the models, "
        + "for each change kind, with update traffic; counts errors, corruptions, stale values, lost writes, unreadable items by reason, hit rate before, during and after, and factory calls.",
        [KeysOption, StepOption, UpdateEveryOption, KindsOption, ApiOption],
        RunAsync);

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A change kind name or the API name is unknown.</exception>
    public static DeploySettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        DeploySettings settings = Common.Start(result);
        string? kinds = result.GetValue(KindsOption);
        string? api = result.GetValue(ApiOption);
        return Common.Apply(result, settings with
        {
            Keys = ScenarioOptions<DeploySettings>.Given(result, KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            Step = ScenarioOptions<DeploySettings>.Given(result, StepOption) ? result.GetValue(StepOption) : settings.Step,
            UpdateEvery = ScenarioOptions<DeploySettings>.Given(result, UpdateEveryOption) ? result.GetValue(UpdateEveryOption) : settings.UpdateEvery,
            Api = string.IsNullOrWhiteSpace(api) ? settings.Api : DeploySettings.ParseApi(api),
            Kinds = ScenarioOptions<DeploySettings>.ListOr(kinds, settings.Kinds, DeploySettings.ParseKind),
        });
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () => ToSettings(result),
            (settings, log, cancellationToken) => DeployRunner.RunAsync(settings, log, cancellationToken),
            DeployReportWriter.ToMarkdown,
            (report, settings) => DeployReportWriter.Save(report, settings.OutputDirectory),
            cancellationToken);
}
