using System.Globalization;
using System.Text;
using CacheSerializer.LoadTest.Scenarios;
using static CacheSerializer.LoadTest.Scenarios.ScenarioReportWriter;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>Turns a migration report into a Markdown table (console and file), its verdict, and the JSON file.</summary>
internal static class MigrateReportWriter
{
    private static readonly string[] Columns =
    [
        "Path", "phase", "reads", "get-or-create reads", "hit rate", "misses", "stale", "wrong", "non-values old", "lost hits", "exceptions old", "exceptions new",
        "updates", "items written", "BSON", "bytes/item written", "memcached bytes/item", "memcached items",
    ];

    private static readonly string[] PhaseNames = ["warm-up", "before", "switch", "after", "flip", "second-step"];

    /// <summary>Returns a phase's name in the report and the JSON.</summary>
    /// <param name="phase">The phase.</param>
    /// <returns>Its name.</returns>
    public static string NameOf(MigratePhase phase) => PhaseNames[(int)phase];

    /// <summary>Returns the report as Markdown: what ran, on what, one row per path and phase, what each path and
    /// phase is, the emulation caveat, then the verdict, one line per target (PASS or FAIL) or contrast figure.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(MigrateReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        MigrateSettings s = report.Settings;
        var text = new StringBuilder(ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Migration from EnyimMemcachedCore: {s.Clients} web servers x {s.CallersPerClient} callers on {s.Keys:N0} keys (a user's folder tree of {s.TreeEntries} entries each), cache-aside reads (on new web servers every second read through GetOrCreateAsync) and one update in {s.UpdateEvery} operations (half deletes, half overwrites); the web servers start old and are switched to this package one by one, every {s.Step.TotalSeconds:0.###} s (then, on the Enyim-shaped path, flipped to protobuf object writes one by one)."),
            Columns,
            report.Paths.SelectMany(path => path.Phases.Select(p => (IReadOnlyList<string>)
            [
                path.Path, p.Phase, N(p.Reads), N(p.GetOrCreateReads), MigrateTargets.Percent(p.HitRate), N(p.Misses), N(p.StaleValues), N(p.WrongValues), N(p.NonValues), NumberOrDash(p.LostHits),
                N(p.OldServerExceptions), N(p.NewServerExceptions), N(p.Updates), N(p.ItemsWritten), N(p.BsonItemsWritten),
                N(p.BytesPerItemWritten), N(p.MemcachedBytesPerItem), N(p.MemcachedItems),
            ])),
            [
                .. report.Paths.Select(p => $"{p.Path}: {p.Description}"),
                "phases: warm-up (the load's first moments, all old: not compared), before (all old), switch (old and new), after (all new), "
                    + "flip (the second step under way: object writes flipped to protobuf one web server at a time), second-step (all flipped)",
                report.Emulation,
            ]));
        text.AppendLine();
        foreach (MigrateCheck check in report.Checks)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {check.Verdict} {check.Path}: {check.Name}: {check.Figure}");
        }

        return text.ToString();
    }

    /// <summary>Writes <c>migrate-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(MigrateReport report, string directory) => ScenarioReportWriter.Save("migrate", report, ToMarkdown(report), directory);
}
