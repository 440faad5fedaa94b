using System.Globalization;
using System.Text;
using System.Text.Json;
using CacheSerializer.LoadTest.Results;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>Turns a farm report into a Markdown table (console and file) and the JSON file.</summary>
internal static class FarmReportWriter
{
    /// <summary>Returns the report as Markdown: the settings, the machine, and one row per mode.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(FarmReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        FarmSettings s = report.Settings;
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Farm scenario: {s.Clients} web servers (independent MemcachedClient instances) x {s.CallersPerClient} concurrent callers, {s.HotKeys} hot keys ({N(report.ReadersPerKey)} callers per key across the farm), every hot key expired every {s.ExpireEvery.TotalSeconds:0.###} s for {s.Duration.TotalSeconds:0.#} s per mode; the factory takes {s.FactoryTime.TotalMilliseconds:0} ms; LockTimeout {s.LockTimeout.TotalSeconds:0.#} s.");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"{report.Machine}; load {report.LoadAverage}; memcached {report.Servers}; {report.Started:yyyy-MM-dd HH:mm} UTC.");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"| Mode | expiries | factory calls | per expiry | min-max | reads/s | p50 ms | p99 ms | max ms | reads ≥ {s.FactoryTime.TotalMilliseconds:0} ms | stale reads | errors | corrupt |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (FarmModeResult m in report.Modes)
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {m.Mode} | {m.Expiries} | {N(m.FactoryCalls)} | {m.CallsPerExpiry:0.00} | {m.MinCallsPerExpiry}-{m.MaxCallsPerExpiry} | {N(m.ReadsPerSecond)} | {m.P50Milliseconds:0.00} | {m.P99Milliseconds:0.0} | {m.MaxMilliseconds:0.0} | {N(m.SlowReads)} | {N(m.StaleReads)} | {N(m.Errors)} | {N(m.Corruptions)} |");
        }

        text.AppendLine();
        foreach (FarmModeResult m in report.Modes)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {m.Mode}: {m.Description}");
        }

        return text.ToString();
    }

    /// <summary>Writes <c>farm-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(FarmReport report, string directory) =>
        ReportWriter.SaveScenario("farm", report.Started, report, ToMarkdown(report), directory);

    private static string N(double value) => value.ToString("#,0", CultureInfo.InvariantCulture);
}
