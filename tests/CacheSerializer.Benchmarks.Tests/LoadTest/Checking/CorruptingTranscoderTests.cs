using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Deploy;
using CacheSerializer.LoadTest.Farm;
using CacheSerializer.LoadTest.Migrate;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Checking;

/// <summary>The checks of every scenario's short run fire: a transcoder that corrupts every item it writes makes each
/// report corruptions (the client reads most such items as misses, its default), so the suite's "0 corruptions" would
/// fail. Without these, a check that can no longer fire (as the main pass's did once OnUnreadableItem = Miss became the
/// default) would pass forever.</summary>
public sealed class CorruptingTranscoderTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-corrupt-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task ContenderPass_TranscoderFlipsAByte_ReportsCorruptionsAndDoesNotComplete()
    {
        LoadTestSettings settings = new LoadTestSettings().AsShort() with { OutputDirectory = _output, Duration = TimeSpan.FromSeconds(2) };
        var contender = new Contender("CacheSerializer+FlippedByte", new ByteFlippingTranscoder(ContenderCatalog.Get(ContenderCatalog.CacheSerializer, settings.MaxItemBytes).Transcoder));
        var mix = ValueMix.Create(settings.Profile, settings.Keys, settings.Seed);
        using var servers = ServerSet.Open(settings);
        var progress = new PassProgress(contender.Name, new PassCounters(), settings.Duration, settings.Operations);

        PassResult pass = await ContenderPass.RunAsync(contender, 0, servers, settings, mix.For(contender.Input), progress, CancellationToken.None);

        Assert.False(pass.Completed);
        Assert.True(pass.Corruptions > 0, $"no corruption reported: {pass.Failure}");

        // What the contender cannot read back is a miss for the client; the pass counts it by reason, as a corruption.
        Assert.True(pass.Unreadable.Values.Sum() > 0, string.Join("; ", pass.CorruptionSamples));
        Assert.Contains(pass.CorruptionSamples, s => s.Contains("could not be read back", StringComparison.Ordinal));
    }

    [Fact]
    public async Task FarmRunner_TranscoderFlipsAByte_ReportsCorruptionsInEveryMode()
    {
        FarmSettings settings = new FarmSettings().AsShort() with { OutputDirectory = _output, Modes = [FarmMode.Plain, FarmMode.Farm] };

        FarmReport report = await FarmRunner.RunAsync(settings, new StringWriter(), CancellationToken.None, inner => new ByteFlippingTranscoder(inner));

        Assert.Equal(["plain", "farm"], report.Modes.Select(m => m.Mode));
        Assert.All(report.Modes, m => Assert.True(m.Corruptions > 0, $"{m.Mode}: no corruption reported"));
    }

    [Fact]
    public async Task DeployRunner_TranscoderFlipsAByte_ReportsCorruptionsWithoutAContractChange()
    {
        DeploySettings settings = new DeploySettings().AsShort() with { OutputDirectory = _output, Kinds = [ChangeKind.None] };

        DeployReport report = await DeployRunner.RunAsync(settings, new StringWriter(), CancellationToken.None, inner => new ByteFlippingTranscoder(inner));

        DeployKindResult none = Assert.Single(report.Kinds);
        Assert.True(none[DeployPhase.Before].Corruptions > 0, string.Join("; ", none.Samples));
        Assert.True(none.Corruptions > 0);
    }

    [Fact]
    public async Task MigrateRunner_TranscoderFlipsAByte_ReportsExceptionsOrWrongValuesBeforeTheSwitch()
    {
        MigrateSettings settings = new MigrateSettings().AsShort() with { OutputDirectory = _output, Paths = [MigratePath.Enyim] };

        MigrateReport report = await MigrateRunner.RunAsync(settings, new StringWriter(), CancellationToken.None, inner => new ByteFlippingTranscoder(inner));

        MigratePathResult enyim = Assert.Single(report.Paths);
        MigratePhaseResult before = enyim[MigratePhase.Before]!;
        Assert.True(before.OldServerExceptions + before.WrongValues > 0, string.Join("; ", enyim.Samples));
        Assert.False(report.Passed());
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
