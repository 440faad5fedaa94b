using System.Globalization;
using System.Text;
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
        string markdown = ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Hybrid scenario{(s.Short ? " (short mode)" : string.Empty)}: {s.Clients} web servers (each its own service provider and HybridCache) x {s.CallersPerClient} callers calling HybridCache.GetOrCreateAsync on {s.Keys} keys, {s.CallGap.TotalMilliseconds:0.#} ms between calls, entries {s.EntryLifetime.TotalSeconds:0} s in both levels, a factory of {s.FactoryMin.TotalMilliseconds:0}-{s.FactoryMax.TotalMilliseconds:0} ms reading a versioned source of truth; every {s.L2ReadEvery}th read skips L1. Phases per contender: {phases}. steady and outage and deploy: one row updated and removed (RemoveAsync on a random web server) every {s.UpdateEvery.TotalMilliseconds:0} ms; tags: {s.Keys} other keys created with one of {s.Tags} tags, a tag's rows updated and the tag removed (RemoveByTagAsync on a random web server) every {s.TagEvery.TotalMilliseconds:0} ms; outage: the contender's L2 server (memcached or redis-server) frozen (SIGSTOP) {s.OutageFor.TotalSeconds:0.##} s from a quarter of the phase; deploy: the web servers replaced one by one by a build whose cached type's contract changed (a member retyped). redis-server {report.Redis}."),
            ["Contender", "phase", "reads/s", "hit rate", "L1 hits", "stale reads", "stale", "L2 reads", "stale at L2", "factory calls per (key, version, build)", "max", "CPU µs/read", "bytes/read", "removals", "removal p50 / p99", "errors", "corruptions", "L2 hits back after"],
            report.Contenders.SelectMany(c => c.Phases.Where(p => !IsFaultStep(p)).Select(p => (IReadOnlyList<string>)
            [
                c.Contender, p.Phase, N(p.ReadsPerSecond), Percent(p.HitRate), Percent(p.L1HitShare), N(p.StaleReads), Percent(p.StaleShare), N(p.L2Reads),
                string.Create(CultureInfo.InvariantCulture, $"{N(p.StaleL2Reads)} ({Percent(p.StaleL2Share)})"),
                p.CallsPerVersion.ToString("0.00", CultureInfo.InvariantCulture), N(p.MaxCallsPerVersion),
                p.CpuMicrosecondsPerRead.ToString("0.0", CultureInfo.InvariantCulture), N(p.NetworkBytesPerRead), N(p.Removals), RemovalTimes(p), N(p.Errors), N(p.Corruptions),
                p.OutageSeconds is null ? "-" : p.L2HitsBackAfterMilliseconds is { } back ? string.Create(CultureInfo.InvariantCulture, $"{back:N0} ms") : "none",
            ])),
            report.Contenders.Select(c => $"{c.Contender}: {c.Description}")
                .Append("A read is stale when it returns a version older than one whose RemoveAsync (or RemoveByTagAsync of its tag) had returned before the read began; \"stale at L2\" counts the reads that skipped L1.")
                .Append("Hit rate: reads whose own factory did not run. L1 hits: the share of the reads allowed L1 that returned the very instance the web server had handed out before (every contender's L1 keeps the instance of a sealed [ImmutableObject(true)] type; L2 and factories make new ones). bytes/read: memcached's and redis-server's own counters (bytes read and written), read at the phase's boundaries, over the phase's reads.")
                .Append("L2 hits back after: from the L2 server's return to the end of the first read that skipped L1, began after it and was answered from L2. Removal p50 / p99: how long RemoveAsync (in the tags phase RemoveByTagAsync; in the faults phase both) took to return."));
        bool ordinary = report.Contenders.SelectMany(c => c.Phases).Any(p => !IsFaultStep(p));
        bool faults = report.Contenders.SelectMany(c => c.Phases).Any(IsFaultStep);
        if (ordinary && faults)
        {
            return markdown + Environment.NewLine + FaultsMarkdown(report, describeContenders: false);
        }

        // A faults-only run: the intro and the machine line, then its own table instead of an empty one.
        return ordinary || !faults ? markdown : markdown[..markdown.IndexOf("| Contender |", StringComparison.Ordinal)] + FaultsMarkdown(report, describeContenders: true);
    }

    /// <summary>Returns whether a phase result is a step of the faults phase.</summary>
    /// <param name="phase">The result.</param>
    /// <returns>True for a step of the faults phase.</returns>
    public static bool IsFaultStep(HybridPhaseResult phase) => phase.Phase.StartsWith(HybridSettings.NameOf(HybridPhase.Faults) + ":", StringComparison.Ordinal);

    /// <summary>The faults phase's table: a row per contender and step.</summary>
    private static string FaultsMarkdown(HybridReport report, bool describeContenders)
    {
        HybridSettings s = report.Settings;
        var text = new StringBuilder();
        text.AppendLine(string.Create(CultureInfo.InvariantCulture, $"Faults phase, on servers of its own per contender: {HybridSettings.FaultNodes} memcached nodes with -m {s.FaultMemoryMegabytes}, or a redis-server with --maxmemory {s.FaultMemoryMegabytes}mb (allkeys-lru) and a replica; the tagged keys read, a row removed by key every {s.UpdateEvery.TotalMilliseconds:0} ms and a tag every {s.TagEvery.TotalMilliseconds:0} ms. Steps: memory pressure {s.PressureFor.TotalSeconds:0.#} s (filler for three quarters of it; for the package's HybridCache hc:seq, the next hc:log item, an hc:tag record and hc:tag:* deleted twice each); each server frozen {s.FaultFreeze.TotalSeconds:0.#} s (past the client's {HybridSettings.OperationTimeout.TotalSeconds:0.#} s operation timeout), then killed {s.KillFor.TotalSeconds:0.#} s and restarted empty; every server frozen {(s.FaultFreeze + s.FreezePast).TotalSeconds:0.#} s while web server 0 makes every removal, and restarted {s.FreezePast.TotalSeconds:0.#} s before the servers run again. Each fault {s.FaultLead.TotalSeconds:0.#} s into its step, which runs {s.FaultTail.TotalSeconds:0.#} s after it is lifted."));
        text.AppendLine();
        string[] columns = ["Contender", "step", "reads/s", "hit rate", "hit rate after recovery", "stale reads", "stale at L2", "stale, keys on the faulted server", "stale after recovery", "factory calls per (key, version) (max)", "removal p50 / p99", "errors", "removals lost with a web server", "outages entered (event 44)", "changes not taken (event 43)", "evictions", "lock timeouts", "L2 hits back after"];
        text.AppendLine($"| {string.Join(" | ", columns)} |");
        text.AppendLine($"|---|---|{string.Concat(Enumerable.Repeat("---:|", columns.Length - 2))}");
        foreach (HybridContenderResult c in report.Contenders)
        {
            foreach (HybridPhaseResult p in c.Phases.Where(IsFaultStep))
            {
                string[] cells =
                [
                    c.Contender, p.Phase[(HybridSettings.NameOf(HybridPhase.Faults).Length + 2)..], N(p.ReadsPerSecond), Percent(p.HitRate),
                    p.HitRateAfterRecovery is double after ? Percent(after) : "-",
                    string.Create(CultureInfo.InvariantCulture, $"{N(p.StaleReads)} ({Percent(p.StaleShare)})"),
                    string.Create(CultureInfo.InvariantCulture, $"{N(p.StaleL2Reads)} ({Percent(p.StaleL2Share)})"),
                    p.StaleOnFaultedServer is long onFaulted ? N(onFaulted) : "-",
                    p.StaleAfterRecovery is long afterRecovery ? string.Create(CultureInfo.InvariantCulture, $"{N(afterRecovery)} ({Percent(p.ReadsAfterRecovery == 0 ? 0 : (double)afterRecovery / p.ReadsAfterRecovery)})") : "-",
                    string.Create(CultureInfo.InvariantCulture, $"{p.CallsPerVersion:0.00} ({p.MaxCallsPerVersion})"),
                    RemovalTimes(p), N(p.Errors), N(p.AbandonedRemovals), N(p.OutagesEntered), N(p.ChangesFailed), NumberOrDash(p.Evictions), N(p.LockTimeouts),
                    p.L2HitsBackAfterMilliseconds is { } back ? string.Create(CultureInfo.InvariantCulture, $"{back:N0} ms") : "-",
                ];
                text.AppendLine($"| {string.Join(" | ", cells)} |");
            }
        }

        text.AppendLine();
        if (describeContenders)
        {
            foreach (HybridContenderResult c in report.Contenders)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"- {c.Contender}: {c.Description}");
            }
        }

        text.AppendLine("- Stale reads: as in the other phases (a version older than one whose removal had returned before the read began), L1 allowed; at L2 the reads that skipped L1; \"keys on the faulted server\" counts both kinds for the keys the client places on the server the step faults. Hit rate and stale after recovery: the reads (both kinds) begun after the fault was lifted (the server let run or restarted, the filler stopped), so what the fault left behind, apart from what was served while it lasted. Removals lost with a web server: removals in flight when it was disposed, which threw (not errors). Events 43 and 44: the package's HybridCache's warnings, counted from its logs (the other contenders have none).");
        return text.ToString();
    }

    private static string RemovalTimes(HybridPhaseResult p) => p.RemovalP50Milliseconds is double p50 && p.RemovalP99Milliseconds is double p99
        ? string.Create(CultureInfo.InvariantCulture, $"{p50:0.#} / {p99:0.#} ms")
        : "-";

    /// <summary>Writes <c>hybrid-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(HybridReport report, string directory) => ScenarioReportWriter.Save("hybrid", report, ToMarkdown(report), directory);

    private static string Percent(double share) => share.ToString("0.00 %", CultureInfo.InvariantCulture);
}
