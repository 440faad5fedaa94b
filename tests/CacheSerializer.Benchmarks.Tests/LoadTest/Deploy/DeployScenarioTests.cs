using System.Text.Json;
using CacheSerializer.LoadTest.Deploy;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

/// <summary>The rolling-deploy scenario's short mode against real memcached, with update traffic from both builds: no
/// errors, no corruptions, no stale values and no lost writes for any change kind; no unreadable read at all without a
/// change; unreadable reads during the deploy of every change, all of the reason the change explains.</summary>
public sealed class DeployScenarioTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-deploy-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortModeWithUpdates_NoErrorsNoCorruptionsNoStaleValuesNoLostWrites()
    {
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None);

        Assert.Equal(20, settings.UpdateEvery);
        Assert.Equal(["none", "member-added", "member-retyped", "subtype-removed"], report.Kinds.Select(k => k.Kind));
        foreach (DeployKindResult kind in report.Kinds)
        {
            string why = AssertNoErrorsOrCorruptions(kind, log);
            Assert.True(kind.StaleValues == 0, why);
            Assert.Equal(0, kind.LostWrites);
            Assert.Equal(["before", "during", "after"], kind.Phases.Select(p => p.Phase));
            Assert.All(kind.Phases, p => Assert.True(p.Reads > 0 && p.Updates > 0, why));

            // Before the first switch build 1 alone runs: nothing is unreadable.
            Assert.Empty(kind[DeployPhase.Before].Unreadable);
        }

        // No change: not one unreadable read.
        DeployKindResult none = report.Kinds[0];
        Assert.All(none.Phases, p => Assert.Equal((0, 0L), (p.Unreadable.Count, p.OtherBuildValues)));

        // A changed contract: during the deploy each build finds items of the other's contract (or, for the removed
        // subtype, of a type build 2 does not know), and reads them as misses.
        foreach (DeployKindResult changed in report.Kinds.Skip(1))
        {
            Assert.True(changed[DeployPhase.During].Unreadable.Values.Sum() > 0, $"{changed.Kind}: no unreadable read during the deploy\n{log}");
        }

        // Build copies (issue 32): besides the misses updates cause, a member added or retyped costs at most 2 x the
        // keys in misses during the deploy.
        foreach (DeployKindResult changed in report.Kinds.Skip(1).Take(2))
        {
            Assert.True(changed[DeployPhase.During].DeployMisses <= 2 * settings.Keys, $"{changed.Kind}: {changed[DeployPhase.During].DeployMisses} misses of the deploy's own\n{log}");
        }

        // Each of the reason its change explains: another contract for a member added or retyped, an unknown type for
        // the removed subtype.
        Assert.Equal(["other_contract"], report.Kinds[1].Unreadable.Keys);
        Assert.Equal(["other_contract"], report.Kinds[2].Unreadable.Keys);
        Assert.Equal(["unknown_type"], report.Kinds[3].Unreadable.Keys);

        // Build 1 reads build 2's plain product of a bundle key as it is: the other build's value, not a wrong one.
        Assert.True(report.Kinds[3][DeployPhase.During].OtherBuildValues > 0, log.ToString());
        Assert.Equal(0, report.Kinds[3][DeployPhase.After].OtherBuildValues);

        IReadOnlyList<string> files = DeployReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(4, json.RootElement.GetProperty("kinds").GetArrayLength());
        Assert.Equal(0, json.RootElement.GetProperty("kinds")[0].GetProperty("staleValues").GetInt64());
        Assert.StartsWith("| none | 0 | 0 | 0 | 0 | ", File.ReadAllText(files[1]).Split('\n').Single(l => l.StartsWith("| none |", StringComparison.Ordinal)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_ShortModeWithoutUpdates_EachBuildMissesAChangedKeyAboutOnce()
    {
        // Issue 32: a build that misses the other build's item fills its own copy beside it (AddAsync), so neither
        // evicts the other and a key costs about one miss for the whole deploy, not one per switch of builds.
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, UpdateEvery = 0, Kinds = [ChangeKind.MemberAdded, ChangeKind.MemberRetyped] };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None);

        foreach (DeployKindResult kind in report.Kinds)
        {
            AssertNoErrorsOrCorruptions(kind, log);
            Assert.Equal(0, kind[DeployPhase.Before].Misses);
            Assert.InRange(kind[DeployPhase.During].Misses + kind[DeployPhase.After].Misses, 1, 2 * settings.Keys);
        }
    }

    [Fact]
    public async Task RunAsync_GetOrCreateShortModeWithUpdates_NoStaleValuesAndAboutOneFactoryCallPerKeyAndBuild()
    {
        // Issue 32: GetOrCreateAsync keeps build copies too, and neither its CAS store nor its in-process single flight
        // hands out a value loaded before an update that completed before the call began.
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, Api = DeployApi.GetOrCreate };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None);

        foreach (DeployKindResult kind in report.Kinds)
        {
            string why = AssertNoErrorsOrCorruptions(kind, log);
            Assert.True(kind.StaleValues == 0, why);
            Assert.Null(kind.LostWrites); // not checked: the client stores inside the call
            Assert.All(kind.Phases, p => Assert.True(p.Reads > 0 && p.Updates > 0, why));
            Assert.Empty(kind[DeployPhase.Before].Unreadable);
        }

        Assert.All(report.Kinds[0].Phases, p => Assert.Empty(p.Unreadable));
        foreach (DeployKindResult changed in report.Kinds.Skip(1).Take(2))
        {
            Assert.Equal(["other_contract"], changed.Unreadable.Keys);
            Assert.True(changed[DeployPhase.During].DeployMisses <= 2 * settings.Keys, $"{changed.Kind}: {changed[DeployPhase.During].DeployMisses} factory calls of the deploy's own\n{log}");
        }
    }

    [Fact]
    public async Task RunAsync_HybridShortModeWithoutUpdates_NoErrorsNoCorruptionsAndEveryUnreadableEntryOfTheChangesReason()
    {
        // What HybridCache users get (measured, docs/client.md "Rolling deploys"): its entries of another contract are
        // misses whose factory value replaces them, so the builds evict each other; but never an exception or a wrong value.
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, Api = DeployApi.Hybrid, UpdateEvery = 0, Kinds = [ChangeKind.None, ChangeKind.MemberAdded] };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None);

        foreach (DeployKindResult kind in report.Kinds)
        {
            AssertNoErrorsOrCorruptions(kind, log);
            Assert.Equal(0, kind[DeployPhase.Before].Misses);
        }

        Assert.True(report.Kinds[0].Misses == 0, $"{report.Kinds[0].Misses} misses without a change: {string.Join("; ", report.Kinds[0].Samples)}\n{log}");
        Assert.Equal(["other_contract"], report.Kinds[1].Unreadable.Keys);
        Assert.Equal(report.Kinds[1].Misses, report.Kinds[1].Unreadable["other_contract"]);
    }

    [Fact]
    public async Task RunAsync_CacheAsideReadGetsAValueTwoUpdatesOldOnce_CountsExactlyThatStaleValue()
    {
        // The row gate makes a cache-aside fill and an update atomic, which hides the race a copy bug would cause: so
        // the check is shown to fire by a read handed version 1 of a key that memcached held at version 3 or later.
        // Few keys, so a key passes version 10 within the run even on a loaded machine (with 100 keys a clean-clone suite
        // run found no key at version 3); and version 10, so the read it is planted in began after version 1's
        // invalidation even when a read spans an update and a fill (planting at version 3 was not stale once in a run
        // beside two busy processes, at load 20).
        var planting = new StalePlanting(fromVersion: 10);
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, Kinds = [ChangeKind.None], Keys = 10 };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None, inner => new StalePlantingTranscoder(inner, planting));

        DeployKindResult none = Assert.Single(report.Kinds);
        string why = AssertNoErrorsOrCorruptions(none, log);
        Assert.True(planting.Key >= 0, $"no read found a version {planting.FromVersion} or later to plant in\n{why}");
        Assert.True(none.StaleValues == 1, why);
        Assert.Contains(none.Samples, s => s.Contains($"deploy:none:{planting.Key}: read version 1 after the delete or overwrite made for version ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task RunAsync_GetOrCreateHitGetsAValueTwoUpdatesOldOnce_CountsItAsStale()
    {
        // The same through GetOrCreateAsync. Callers of one web server that asked for the key while the planted read was
        // on its way share its value (the in-process single flight), so each of them holds it: at most a web server's callers.
        // Three reads of distinct keys are planted in: a caller polling for another caller's factory (5 ms, doubling up to
        // 100 ms) can span two updates of its key, and version 1 is then not stale for it (one planted read was not
        // counted in about 1 full suite run of 13, 2026-11-27); at least one of three is.
        var planting = new StalePlanting(plants: 3);
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, Api = DeployApi.GetOrCreate, Kinds = [ChangeKind.None] };
        var log = new StringWriter();

        DeployReport report = await DeployRunner.RunAsync(settings, log, CancellationToken.None, inner => new StalePlantingTranscoder(inner, planting));

        DeployKindResult none = Assert.Single(report.Kinds);
        string why = AssertNoErrorsOrCorruptions(none, log);
        IReadOnlyList<int> planted = planting.Keys;
        Assert.True(planted.Count >= 1, $"no read found a version {planting.FromVersion} or later to plant in\n{why}");
        Assert.True(none.StaleValues >= 1 && none.StaleValues <= planted.Count * settings.CallersPerClient, why);
        Assert.Contains(none.Samples, s => planted.Any(k => s.Contains($"deploy:none:{k}: read version 1 after the delete or overwrite made for version ", StringComparison.Ordinal)));
        string[] others = [.. none.Samples.Where(s => s.Contains("read version", StringComparison.Ordinal) && !planted.Any(k => s.Contains($"deploy:none:{k}: read version 1 after", StringComparison.Ordinal)))];
        Assert.True(others.Length == 0, $"stale values besides the planted one: {string.Join("; ", others)}\n{why}");
    }

    [Fact]
    public async Task RunAsync_MemberAddedWithAndWithoutBuildCopies_TwiceTheKeysBoundSeparatesThem()
    {
        // The bound the deploy tests hold copies to (at most 2 x keys of the deploy's own misses while both builds run)
        // fails without them: the same deploy whose fills overwrite the other build's item (SetAsync, no copy) has
        // the builds evict each other on every switch of reader.
        DeploySettings copies = new DeploySettings().AsShort() with { OutputDirectory = _output, UpdateEvery = 0, Kinds = [ChangeKind.MemberAdded] };
        DeploySettings none = copies with { FillsOverwrite = true };
        var log = new StringWriter();

        DeployKindResult withCopies = Assert.Single((await DeployRunner.RunAsync(copies, log, CancellationToken.None)).Kinds);
        DeployKindResult withoutCopies = Assert.Single((await DeployRunner.RunAsync(none, log, CancellationToken.None)).Kinds);

        AssertNoErrorsOrCorruptions(withCopies, log);
        AssertNoErrorsOrCorruptions(withoutCopies, log);
        long copiesMisses = withCopies[DeployPhase.During].DeployMisses;
        long noCopiesMisses = withoutCopies[DeployPhase.During].DeployMisses;
        Assert.True(copiesMisses <= 2 * copies.Keys && noCopiesMisses > 2 * copies.Keys, $"{copiesMisses} misses during the deploy with copies, {noCopiesMisses} without, for {copies.Keys} keys\n{log}");
    }

    /// <summary>Asserts a change kind's run had no error or corruption; returns what explains a failure: its samples and
    /// the run's log. Stale values are asserted apart, by the runs with updates (without, no value can be stale).</summary>
    private static string AssertNoErrorsOrCorruptions(DeployKindResult kind, StringWriter log)
    {
        string why = $"{kind.Kind}: {string.Join("; ", kind.Samples)}\n{log}";
        Assert.True(kind.Errors == 0 && kind.Corruptions == 0, why);
        return why;
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
