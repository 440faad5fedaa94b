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
        string phases = string.Join(", ", s.Phases.Select(p => string.Create(CultureInfo.InvariantCulture, $"{HybridSettings.NameOf(p)} {s.DurationOf(p).TotalSeconds:0.#} s")));
        return ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Hybrid scenario{(s.Short ? " (short mode)" : string.Empty)}: {s.Clients} web servers (each its own service provider and HybridCache) x {s.CallersPerClient} callers calling HybridCache.GetOrCreateAsync on {s.Keys} keys, {s.CallGap.TotalMilliseconds:0.#} ms between calls, entries {s.EntryLifetime.TotalSeconds:0} s in both levels, a factory of {s.FactoryMin.TotalMilliseconds:0}-{s.FactoryMax.TotalMilliseconds:0} ms reading a versioned source of truth; every {s.L2ReadEvery}th read skips L1. Phases per contender: {phases}. steady and outage and deploy: one row updated and removed (RemoveAsync on a random web server) every {s.UpdateEvery.TotalMilliseconds:0} ms; tags: {s.Keys} other keys created with one of {s.Tags} tags, a tag's rows updated and the tag removed (RemoveByTagAsync on a random web server) every {s.TagEvery.TotalMilliseconds:0} ms; outage: the contender's L2 server (memcached or redis-server) frozen (SIGSTOP) {s.OutageFor.TotalSeconds:0.##} s from a quarter of the phase; deploy: the web servers replaced one by one by a build whose cached type's contract changed (a member retyped). redis-server {report.Redis}."),
            ["Contender", "phase", "reads/s", "hit rate", "L1 hits", "stale reads", "stale", "L2 reads", "stale at L2", "factory calls per (key, version, build)", "max", "CPU µs/read", "bytes/read", "removals", "errors", "corruptions", "L2 hits back after"],
            report.Contenders.SelectMany(c => c.Phases.Select(p => (IReadOnlyList<string>)
            [
                c.Contender, p.Phase, N(p.ReadsPerSecond), Percent(p.HitRate), Percent(p.L1HitShare), N(p.StaleReads), Percent(p.StaleShare), N(p.L2Reads),
                string.Create(CultureInfo.InvariantCulture, $"{N(p.StaleL2Reads)} ({Percent(p.StaleL2Share)})"),
                p.CallsPerVersion.ToString("0.00", CultureInfo.InvariantCulture), N(p.MaxCallsPerVersion),
                p.CpuMicrosecondsPerRead.ToString("0.0", CultureInfo.InvariantCulture), N(p.NetworkBytesPerRead), N(p.Removals), N(p.Errors), N(p.Corruptions),
                p.OutageSeconds is null ? "-" : p.L2HitsBackAfterMilliseconds is { } back ? string.Create(CultureInfo.InvariantCulture, $"{back:N0} ms") : "none",
            ])),
            report.Contenders.Select(c => $"{c.Contender}: {c.Description}")
                .Append("A read is stale when it returns a version older than one whose RemoveAsync (or RemoveByTagAsync of its tag) had returned before the read began; \"stale at L2\" counts the reads that skipped L1.")
                .Append("Hit rate: reads whose own factory did not run. L1 hits: the share of the reads allowed L1 that returned the very instance the web server had handed out before (every contender's L1 keeps the instance of a sealed [ImmutableObject(true)] type; L2 and factories make new ones). bytes/read: memcached's and redis-server's own counters (bytes read and written), read at the phase's boundaries, over the phase's reads.")
                .Append("L2 hits back after: from the L2 server's return to the end of the first read that skipped L1, began after it and was answered from L2."));
    }

    /// <summary>Writes <c>hybrid-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(HybridReport report, string directory) => ScenarioReportWriter.Save("hybrid", report, ToMarkdown(report), directory);

    private static string Percent(double share) => share.ToString("0.00 %", CultureInfo.InvariantCulture);
}
