using System.Globalization;
using System.Text;
using System.Text.Json;
using CacheSerializer.LoadTest.Results;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Turns a deploy report into a Markdown table (console and file) and the JSON file.</summary>
internal static class DeployReportWriter
{
    /// <summary>Returns the report as Markdown: the settings, the machine, and one row per change kind.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(DeployReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        DeploySettings s = report.Settings;
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Rolling deploy: {s.Clients} web servers (independent MemcachedClient instances) x {s.CallersPerClient} callers running get-or-load on {s.Keys} keys, stored by build 1 first; one web server switched to build 2 every {s.Step.TotalSeconds:0.###} s ({s.DurationPerKind.TotalSeconds:0.#} s per change kind).");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"{report.Machine}; load {report.LoadAverage}; memcached {report.Servers}; {report.Started:yyyy-MM-dd HH:mm} UTC.");
        text.AppendLine();
        text.AppendLine("| Change | errors | corruptions | lost writes | hit rate before | during | after | factory calls | misses | unreadable (by reason) | other build's value | reads |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (DeployKindResult k in report.Kinds)
        {
            DeployPhaseResult before = k[DeployPhase.Before], during = k[DeployPhase.During], after = k[DeployPhase.After];
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {k.Kind} | {N(k.Errors)} | {N(k.Corruptions)} | {(k.LostWrites is long lost ? N(lost) : "-")} | {P(before.HitRate)} | {P(during.HitRate)} | {P(after.HitRate)} | {N(k.FactoryCalls)} | {N(k.Misses)} | {Reasons(k.Unreadable)} | {N(k.Phases.Sum(p => p.OtherBuildValues))} | {N(k.Phases.Sum(p => p.Reads))} |");
        }

        text.AppendLine();
        foreach (DeployKindResult k in report.Kinds)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {k.Kind}: {k.Description}");
        }

        return text.ToString();
    }

    /// <summary>Writes <c>deploy-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(DeployReport report, string directory) =>
        ReportWriter.SaveScenario("deploy", report.Started, report, ToMarkdown(report), directory);

    private static string Reasons(IReadOnlyDictionary<string, long> unreadable) =>
        unreadable.Count == 0 ? "0" : string.Join(", ", unreadable.Select(u => $"{N(u.Value)} {u.Key}"));

    private static string N(double value) => value.ToString("#,0", CultureInfo.InvariantCulture);

    private static string P(double rate) => rate.ToString("0.0 %", CultureInfo.InvariantCulture);
}
