using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;
using static CacheSerializer.LoadTest.Scenarios.ScenarioReportWriter;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Turns a deploy report into a Markdown table (console and file) and the JSON file.</summary>
internal static class DeployReportWriter
{
    private static readonly string[] Columns =
        ["Change", "errors", "corruptions", "stale values", "lost writes", "hit rate before", "during", "after", "factory calls", "misses", "of them from updates", "deploy's misses during", "unreadable (by reason)", "absent (after a delete)", "other build's value", "updates", "reads", "memcached items before / during / after", "bytes before / during / after"];

    /// <summary>Returns the report as Markdown: the settings, the machine, and one row per change kind.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(DeployReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        DeploySettings s = report.Settings;
        return ScenarioReportWriter.ToMarkdown(
            report,
            string.Create(CultureInfo.InvariantCulture, $"Rolling deploy: {s.Clients} web servers (independent MemcachedClient instances) x {s.CallersPerClient} callers reading {s.Keys} keys through {ApiText(s.Api)}, stored by build 1 first, {(s.UpdateEvery == 0 ? "no updates" : $"every {s.UpdateEvery}th operation an update (a new version, then a delete or an overwrite)")}; one web server switched to build 2 every {s.Step.TotalSeconds:0.###} s ({s.DurationPerKind.TotalSeconds:0.#} s per change kind)."),
            Columns,
            report.Kinds.Select(k => (IReadOnlyList<string>)
            [
                k.Kind, N(k.Errors), N(k.Corruptions), N(k.StaleValues), NumberOrDash(k.LostWrites),
                P(k[DeployPhase.Before].HitRate), P(k[DeployPhase.During].HitRate), P(k[DeployPhase.After].HitRate),
                N(k.FactoryCalls), N(k.Misses), N(k.Phases.Sum(p => p.UpdateCausedMisses)), N(k[DeployPhase.During].DeployMisses), ByReason(k.Unreadable), N(k.Phases.Sum(p => p.AbsentMisses)), N(k.Phases.Sum(p => p.OtherBuildValues)),
                N(k.Phases.Sum(p => p.Updates)), N(k.Phases.Sum(p => p.Reads)),
                string.Join(" / ", k.Phases.Select(p => N(p.MemcachedItems))), string.Join(" / ", k.Phases.Select(p => N(p.MemcachedBytes))),
            ]),
            report.Kinds.Select(k => $"{k.Kind}: {k.Description}"));
    }

    /// <summary>Writes <c>deploy-&lt;time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save(DeployReport report, string directory) => ScenarioReportWriter.Save("deploy", report, ToMarkdown(report), directory);

    private static string ApiText(DeployApi api) => api switch
    {
        DeployApi.CacheAside => "cache-aside (GetAsync, then the factory and AddAsync on a miss)",
        DeployApi.GetOrCreate => "MemcachedClient.GetOrCreateAsync",
        _ => "HybridCache.GetOrCreateAsync (local cache off; the package's IDistributedCache and serializer)",
    };

    private static string P(double rate) => rate.ToString("0.0 %", CultureInfo.InvariantCulture);
}
