using CacheSerializer.LoadTest.Hybrid;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Hybrid;

/// <summary>The hybrid scenario's faults phase in its short mode, for the package's HybridCache (Bounded) on 3 real
/// memcached nodes: every step runs and is reported on its own, with reads and removals in each; the memory pressure step
/// evicts and deletes each kind of the package's own records; each node is frozen then killed and restarted, the one
/// holding hc:seq among them; no single node's freeze or kill is an outage or costs a stale read (the invalidation log
/// in three copies, issue 44), every node's freeze is an outage; the package neither throws nor returns a corrupt value.
/// docs/loadtest.md, "Faults phase", has the full run's figures.</summary>
public sealed class HybridFaultsTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-hybrid-faults-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortFaultsPhase_EveryStepRunsNoOneNodeCostsAStaleReadPackageNeverThrows()
    {
        HybridSettings settings = new HybridSettings().AsShort() with { OutputDirectory = _output, Phases = [HybridPhase.Faults], Contenders = [HybridContender.Bounded] };
        var log = new StringWriter();

        HybridReport report = await HybridRunner.RunAsync(settings, log, CancellationToken.None);

        HybridContenderResult bounded = Assert.Single(report.Contenders);
        string why = $"{string.Join("; ", bounded.Samples)}\n{log}";
        HybridPhaseResult[] steps = [.. bounded.Phases];
        Assert.Equal(2 + (2 * HybridSettings.FaultNodes), steps.Length);
        Assert.All(steps, s => Assert.True(HybridReportWriter.IsFaultStep(s), s.Phase));
        Assert.Equal("faults: memory pressure", steps[0].Phase);
        Assert.Equal("faults: web server restarted in an outage", steps[^1].Phase);
        HybridPhaseResult[] freezes = [.. steps.Where(s => s.Phase.StartsWith("faults: freeze ", StringComparison.Ordinal))];
        HybridPhaseResult[] kills = [.. steps.Where(s => s.Phase.StartsWith("faults: kill ", StringComparison.Ordinal))];
        Assert.Equal(HybridSettings.FaultNodes, freezes.Length);
        Assert.Equal(freezes.Select(s => s.FaultedServer), kills.Select(s => s.FaultedServer));
        Assert.Equal(HybridSettings.FaultNodes, freezes.Select(s => s.FaultedServer).Distinct().Count());
        Assert.Single(freezes, s => s.FaultedServer!.Contains("hc:seq", StringComparison.Ordinal)); // the log's primary among them

        foreach (HybridPhaseResult step in steps)
        {
            string about = $"{step.Phase}: {step.Reads} reads, {step.L2Reads} at L2, {step.Removals} removals, {step.Errors} errors, {step.Corruptions} corruptions; {string.Join("; ", step.Events ?? [])}\n{why}";
            Assert.True(step.Reads + step.L2Reads > 0 && step.Removals > 0, about);
            Assert.True(step.Errors == 0 && step.Corruptions == 0, about);
            Assert.NotNull(step.RemovalP50Milliseconds);
        }

        // The filler filled the nodes' memory, and each kind of record was deleted (the deletions are at random moments,
        // two of each kind: the names say which).
        HybridPhaseResult pressure = steps[0];
        Assert.True(pressure.Evictions > 0, $"no eviction: {string.Join("; ", pressure.Events!)}\n{why}");
        foreach (string record in new[] { "deleted hc:seq ", "deleted hc:log:", "deleted hc:tag:hybrid-tag-", "deleted hc:tag:* " })
        {
            Assert.Contains(pressure.Events!, e => e.Contains(record, StringComparison.Ordinal));
        }

        // With 3 nodes the invalidation log has three copies: no one node's freeze or kill is an outage to the web servers
        // (event 44), nor costs a stale read, at either level (before, the freeze of hc:seq's node was an outage, and it
        // and its kill cost hundreds of stale reads in the full run). Every node frozen at once is an outage.
        foreach (HybridPhaseResult step in freezes.Concat(kills))
        {
            string about = $"{step.Phase}: {step.OutagesEntered} outages, {step.StaleReads} stale reads, {step.StaleL2Reads} at L2; {string.Join("; ", step.Events ?? [])}; {string.Join("; ", step.Samples)}\n{why}";
            Assert.True(step.OutagesEntered == 0 && step.StaleReads == 0 && step.StaleL2Reads == 0, about);
        }

        Assert.True(steps[^1].OutagesEntered > 0, $"{steps[^1].Phase}: no outage\n{why}");
        Assert.Contains(steps[^1].Events!, e => e.Contains("restarted web server 0", StringComparison.Ordinal));
        Assert.All(kills, k => Assert.Contains(k.Events!, e => e.Contains("restarted 127.0.0.1:", StringComparison.Ordinal)));

        Assert.True(report.Passed(), log.ToString());
        IReadOnlyList<string> files = HybridReportWriter.Save(report, _output);
        Assert.Contains("| bounded | web server restarted in an outage | ", File.ReadAllText(files[1]), StringComparison.Ordinal);
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
