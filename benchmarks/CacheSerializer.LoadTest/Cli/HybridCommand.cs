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
        "3 web servers x 4 callers on 20 keys, 3 s per contender");

    private static readonly Option<int> KeysOption = new("--keys")
    {
        Description = "Keys (rows of the source of truth) the callers read.",
        DefaultValueFactory = _ => Defaults.Keys,
    };

    private static readonly Option<TimeSpan> UpdateEveryOption = LoadTestCommand.TimeOption(
        "--update-every", "How often a random row is updated and its key removed on a random web server: 25ms, 1s.", Defaults.UpdateEvery);

    private static readonly Option<TimeSpan> DurationOption = LoadTestCommand.TimeOption(
        "--duration", "How long each contender runs.", Defaults.Duration);

    private static readonly Option<string?> ContendersOption = new("--contenders")
    {
        Description = $"Comma-separated contenders, run in this order (default: all): {string.Join(", ", HybridSettings.ContenderNames)}.",
        HelpName = "names",
    };

    /// <summary>Builds the <c>hybrid</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create() => Common.CreateCommand(
        "hybrid",
        "The hybrid scenario: web servers x callers on HybridCache.GetOrCreateAsync while rows are updated and removed; "
        + "counts stale reads, factory calls per (key, version), hits, reads per second and CPU per read of the package's HybridCache "
        + "(Bounded, Strict), Microsoft's over memcached and over Redis, and FusionCache over Redis with its backplane (with and without its locker).",
        [KeysOption, UpdateEveryOption, DurationOption, ContendersOption],
        RunAsync);

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A contender name is unknown.</exception>
    public static HybridSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        HybridSettings settings = Common.Start(result);
        bool Given(Option option) => ScenarioOptions<HybridSettings>.Given(result, option);
        string? contenders = result.GetValue(ContendersOption);
        return Common.Apply(result, settings with
        {
            Keys = Given(KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            UpdateEvery = Given(UpdateEveryOption) ? result.GetValue(UpdateEveryOption) : settings.UpdateEvery,
            Duration = Given(DurationOption) ? result.GetValue(DurationOption) : settings.Duration,
            Contenders = string.IsNullOrWhiteSpace(contenders) ? settings.Contenders : [.. contenders.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(HybridSettings.ParseContender)],
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
