using System.CommandLine;
using CacheSerializer.LoadTest.Migrate;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>migrate</c> command: the migration from EnyimMemcachedCore of issue 31 (docs/loadtest.md,
/// "Migration from EnyimMemcachedCore (issue 31)").</summary>
internal static class MigrateCommand
{
    private static readonly MigrateSettings Defaults = new();

    private static readonly ScenarioOptions<MigrateSettings> Common = new(
        Defaults,
        Defaults.AsShort(),
        "Web servers: each starts as an EnyimMemcachedCore application (emulated: this package's client placing keys and writing bytes as "
            + "EnyimMemcachedCore does, with its failure behaviour) and is switched one by one to this package, bound from its configuration section.",
        "Concurrent callers on each web server: a cache-aside read of a random key in a loop (get; on a miss, the source of truth read and set), "
            + "and every Nth operation an update (--update-every).",
        "3 web servers x 4 callers, 500 keys, 1.5 s per step",
        "the old servers place keys as EnyimMemcachedCore does, the new ones as their section says");

    private static readonly Option<int> KeysOption = new("--keys")
    {
        Description = "Keys the callers read, each a user's folder tree of 10 entries; all stored by the old application before the migration.",
        DefaultValueFactory = _ => Defaults.Keys,
    };

    private static readonly Option<TimeSpan> StepOption = LoadTestCommand.TimeOption(
        "--step", "Time before the first switch, between two switches, and after the last (and the same for the second step's flips): 4s, 500ms, hh:mm:ss.", Defaults.Step);

    private static readonly Option<int> UpdateEveryOption = new("--update-every")
    {
        Description = "Every Nth operation of a caller updates its key (a new version in the source of truth, then alternately a delete and an overwrite): 20 is 5 %.",
        HelpName = "n",
        DefaultValueFactory = _ => Defaults.UpdateEvery,
    };

    private static readonly Option<string?> PathsOption = new("--paths")
    {
        Description = "Comma-separated paths, run in this order (default: both): enyim (new web servers bound from the old servers' \"enyimMemcached\" section, "
            + "then flipped to protobuf object writes), ketama (the contrast: bound from a \"Memcached\" section of this package's own shape).",
        HelpName = "names",
    };

    /// <summary>Builds the <c>migrate</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create() => Common.CreateCommand(
        "migrate",
        "Switching a running EnyimMemcachedCore farm to this package (issue 31): N web servers under load, old ones emulated, switched one by one to this package "
        + "bound from the same \"enyimMemcached\" section, then flipped one by one to protobuf object writes; and the contrast, new servers of this package's own "
        + "configuration shape. Counts per phase (before, switch, after, flip, second-step): hit rate, misses, stale and wrong values, lost hits, exceptions on "
        + "old and new servers, bytes per item written and in memcached; checks the targets (PASS/FAIL).",
        [KeysOption, StepOption, UpdateEveryOption, PathsOption],
        RunAsync);

    /// <summary>Turns a parse result into settings: the defaults, then the short mode, then every option given explicitly.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings (not yet validated).</returns>
    /// <exception cref="ArgumentException">A path name is unknown.</exception>
    public static MigrateSettings ToSettings(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        MigrateSettings settings = Common.Start(result);
        bool Given(Option option) => ScenarioOptions<MigrateSettings>.Given(result, option);
        string? paths = result.GetValue(PathsOption);
        return Common.Apply(result, settings with
        {
            Keys = Given(KeysOption) ? result.GetValue(KeysOption) : settings.Keys,
            Step = Given(StepOption) ? result.GetValue(StepOption) : settings.Step,
            UpdateEvery = Given(UpdateEveryOption) ? result.GetValue(UpdateEveryOption) : settings.UpdateEvery,
            Paths = ScenarioOptions<MigrateSettings>.ListOr(paths, settings.Paths, MigrateSettings.ParsePath),
        });
    }

    private static Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken) =>
        ScenarioCommand.RunAsync(
            () => ToSettings(result),
            (settings, log, cancellationToken) => MigrateRunner.RunAsync(settings, log, cancellationToken),
            MigrateReportWriter.ToMarkdown,
            (report, settings) => MigrateReportWriter.Save(report, settings.OutputDirectory),
            cancellationToken);
}
