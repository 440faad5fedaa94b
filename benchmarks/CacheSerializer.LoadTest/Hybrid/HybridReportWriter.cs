using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;
using static CacheSerializer.LoadTest.Scenarios.ScenarioReportWriter;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>Turns a hybrid report into a Markdown table (console and file) and the JSON file.</summary>
internal static class HybridReportWriter
{
    /// <summary>Returns the report as Markdown: the settings, the machine, and one row per contender.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(HybridReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        HybridSettings s = report.Settings;
        return ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Hybrid scenario{(s.Short ? " (short mode)" : string.Empty)}: {s.Clients} web servers (each its own service provider and HybridCache) x {s.CallersPerClient} callers calling HybridCache.GetOrCreateAsync on {s.Keys} keys, {s.CallGap.TotalMilliseconds:0.#} ms between calls, entries {s.EntryLifetime.TotalSeconds:0} s in both levels, a factory of {s.FactoryMin.TotalMilliseconds:0}-{s.FactoryMax.TotalMilliseconds:0} ms reading a versioned source of truth; one row updated and removed (RemoveAsync on a random web server) every {s.UpdateEvery.TotalMilliseconds:0} ms; every {s.L2ReadEvery}th read skips L1; {s.Duration.TotalSeconds:0.#} s per contender; redis-server {report.Redis}."),
            ["Contender", "reads/s", "hit rate", "stale reads", "stale", "L2 reads", "stale at L2", "factory calls per (key, version)", "max", "CPU µs/read", "updates", "errors", "corruptions"],
            report.Contenders.Select(c => (IReadOnlyList<string>)
            [
                c.Contender, N(c.ReadsPerSecond), Percent(c.HitRate), N(c.StaleReads), Percent(c.StaleShare), N(c.L2Reads),
                string.Create(CultureInfo.InvariantCulture, $"{N(c.StaleL2Reads)} ({Percent(c.StaleL2Share)})"),
                c.CallsPerVersion.ToString("0.00", CultureInfo.InvariantCulture), N(c.MaxCallsPerVersion),
                c.CpuMicrosecondsPerRead.ToString("0.0", CultureInfo.InvariantCulture), N(c.Updates), N(c.Errors), N(c.Corruptions),
            ]),
            report.Contenders.Select(c => $"{c.Contender}: {c.Description}")
                .Append("A read is stale when it returns a version older than one whose RemoveAsync had returned before the read began; \"stale at L2\" counts the reads that skipped L1."));
    }

    /// <summary>Writes <c>hybrid-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(HybridReport report, string directory) => ScenarioReportWriter.Save("hybrid", report, ToMarkdown(report), directory);

    private static string Percent(double share) => share.ToString("0.00 %", CultureInfo.InvariantCulture);
}
