using System.Text.Json;
using CacheSerializer.LoadTest.Migrate;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

/// <summary>The migration scenario's short mode against real memcached (three servers): the Enyim-shaped path meets
/// every target exactly (no stale or wrong value, no exception on either side, no lost hit, the hit rate of every phase
/// within 1 point of the one before the switch, protobuf's bytes per item after the second step), and the contrast,
/// new web servers of this package's own configuration shape, measures what that path avoids.</summary>
public sealed class MigrateScenarioTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-migrate-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortMode_EnyimPathMeetsEveryTargetAndTheContrastShowsWhatItAvoids()
    {
        MigrateSettings settings = new MigrateSettings().AsShort() with { OutputDirectory = _output };
        var log = new StringWriter();

        MigrateReport report = await MigrateRunner.RunAsync(settings, log, CancellationToken.None);

        Assert.Equal(["enyim", "ketama"], report.Paths.Select(p => p.Path));
        MigratePathResult enyim = report.Paths[0];
        string why = $"{string.Join("; ", enyim.Samples)}\n{log}";
        Assert.Equal(["warm-up", "before", "switch", "after", "flip", "second-step"], enyim.Phases.Select(p => p.Phase));
        Assert.All(enyim.Phases.Skip(1), p => Assert.True(p.Reads > 0 && p.Misses > 0 && p.Updates > 0 && p.ItemsWritten > 0, $"{p.Phase}: {why}"));

        // Old and new servers place keys alike and write the same bytes, so nothing goes wrong, on either side; and while
        // the new servers read through GetOrCreateAsync, the old ones read no placeholder (docs/client.md, "In the migration phase").
        Assert.True(enyim.StaleValues == 0 && enyim.Corruptions == 0 && enyim.OldServerExceptions == 0 && enyim.NewServerExceptions == 0, why);
        Assert.Equal(0, enyim.LostWrites);
        Assert.Equal(0, enyim.NonValues);
        Assert.All(enyim.Phases.Skip(2), p => Assert.True(p.GetOrCreateReads > 0 && p.GetOrCreateReads < p.Reads, $"{p.Phase}: {why}"));
        Assert.All(enyim.Phases.Take(2), p => Assert.Equal(0, p.GetOrCreateReads));

        // No hit lost: every phase within 1 point of the hit rate before the first switch.
        double before = enyim[MigratePhase.Before]!.HitRate;
        foreach (MigratePhase phase in new[] { MigratePhase.Switch, MigratePhase.After, MigratePhase.Flip, MigratePhase.SecondStep })
        {
            Assert.InRange(enyim[phase]!.HitRate - before, -0.01, 0.01);
        }

        // Objects are BSON until the second step, protobuf (smaller) after it.
        MigratePhaseResult after = enyim[MigratePhase.After]!;
        MigratePhaseResult second = enyim[MigratePhase.SecondStep]!;
        Assert.All(enyim.Phases.Take(4), p => Assert.Equal(p.ItemsWritten, p.BsonItemsWritten)); // warm-up to after
        Assert.Equal(0, second.BsonItemsWritten);
        Assert.True(second.BytesPerItemWritten < after.BytesPerItemWritten, $"{second.BytesPerItemWritten} >= {after.BytesPerItemWritten}");
        Assert.All(report.Checks.Where(c => c.Path == "enyim"), c => Assert.True(c.Passed, $"{c.Name}: {c.Figure}"));
        Assert.True(report.Passed());

        // The contrast: keys placed by ketama, objects written as protobuf, from the first switch. The old servers still
        // read the other servers' copies: values older than a completed delete or overwrite; the new servers miss the
        // old servers' items; and the old servers cannot read protobuf (EnyimMemcachedCore catches the exception).
        MigratePathResult ketama = report.Paths[1];
        Assert.Equal(["warm-up", "before", "switch", "after"], ketama.Phases.Select(p => p.Phase));
        MigratePhaseResult contrastBefore = ketama[MigratePhase.Before]!;
        MigratePhaseResult contrastSwitch = ketama[MigratePhase.Switch]!;
        Assert.Equal((0L, 0L, 0L, 0L), (contrastBefore.StaleValues, contrastBefore.LostHits!.Value, contrastBefore.OldServerExceptions, contrastBefore.WrongValues));
        Assert.True(contrastSwitch.StaleValues > 0, log.ToString());
        Assert.True(contrastSwitch.LostHits > 0, log.ToString());
        Assert.True(contrastSwitch.HitRate < contrastBefore.HitRate, log.ToString());
        Assert.True(contrastSwitch.OldServerExceptions > 0, log.ToString());
        Assert.All(report.Checks.Where(c => c.Path == "ketama"), c => Assert.Null(c.Passed));

        IReadOnlyList<string> files = MigrateReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(2, json.RootElement.GetProperty("paths").GetArrayLength());
        Assert.StartsWith("The old web servers are an emulation", json.RootElement.GetProperty("emulation").GetString(), StringComparison.Ordinal);
        Assert.All(json.RootElement.GetProperty("checks").EnumerateArray().Take(10), c => Assert.True(c.GetProperty("passed").GetBoolean()));
        string markdown = File.ReadAllText(files[1]);
        Assert.Contains("- PASS enyim: 0 stale values: 0", markdown, StringComparison.Ordinal);
        Assert.Contains("- measured ketama: stale values: ", markdown, StringComparison.Ordinal);
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
