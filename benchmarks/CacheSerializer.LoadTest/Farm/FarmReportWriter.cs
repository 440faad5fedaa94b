using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;
using static CacheSerializer.LoadTest.Scenarios.ScenarioReportWriter;

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
        return ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Farm scenario: {s.Clients} web servers (independent MemcachedClient instances) x {s.CallersPerClient} concurrent callers, {s.HotKeys} hot keys ({N(report.ReadersPerKey)} callers per key across the farm), every hot key expired every {s.ExpireEvery.TotalSeconds:0.###} s for {s.Duration.TotalSeconds:0.#} s per mode; the factory takes {s.FactoryTime.TotalMilliseconds:0} ms; LockTimeout {s.LockTimeout.TotalSeconds:0.#} s."),
            ["Mode", "expiries", "factory calls", "per expiry", "min-max", "reads/s", "p50 ms", "p99 ms", "max ms", string.Create(CultureInfo.InvariantCulture, $"reads ≥ {s.FactoryTime.TotalMilliseconds:0} ms"), "stale reads", "errors", "corruptions", "lost writes"],
            report.Modes.Select(m => (IReadOnlyList<string>)
            [
                m.Mode, m.Expiries.ToString(CultureInfo.InvariantCulture), N(m.FactoryCalls), F(m.CallsPerExpiry, "0.00"),
                string.Create(CultureInfo.InvariantCulture, $"{m.MinCallsPerExpiry}-{m.MaxCallsPerExpiry}"), N(m.ReadsPerSecond),
                F(m.P50Milliseconds, "0.00"), F(m.P99Milliseconds, "0.0"), F(m.MaxMilliseconds, "0.0"), N(m.SlowReads), N(m.StaleReads),
                N(m.Errors), N(m.Corruptions), NumberOrDash(m.LostWrites),
            ]),
            report.Modes.Select(m => $"{m.Mode}: {m.Description}"));
    }

    /// <summary>Writes <c>farm-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(FarmReport report, string directory) => ScenarioReportWriter.Save("farm", report, ToMarkdown(report), directory);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
