using System.CommandLine;
using CacheSerializer.LoadTest.Cli;
using CacheSerializer.LoadTest.Hybrid;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Hybrid;

public sealed class HybridCommandTests
{
    private static HybridSettings Settings(params string[] args)
    {
        ParseResult result = LoadTestCommand.Create().Parse(["hybrid", .. args]);
        Assert.Empty(result.Errors);
        return HybridCommand.ToSettings(result);
    }

    [Fact]
    public void ToSettings_NoOptions_TheIssuesWorkload()
    {
        HybridSettings settings = Settings();

        Assert.Equal((4, 8, 40, false), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Short));
        Assert.Equal((TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(5), TimeSpan.FromMilliseconds(20), TimeSpan.FromMilliseconds(25), TimeSpan.FromMinutes(1), TimeSpan.FromSeconds(15)),
            (settings.CallGap, settings.FactoryMin, settings.FactoryMax, settings.UpdateEvery, settings.EntryLifetime, settings.Duration));
        Assert.Equal(Enum.GetValues<HybridContender>(), settings.Contenders);
        Assert.Equal((8, TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(8), TimeSpan.FromSeconds(8), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(10)),
            (settings.Tags, settings.TagEvery, settings.TagsDuration, settings.OutageDuration, settings.OutageFor, settings.DeployDuration));
        Assert.Equal([HybridPhase.Steady, HybridPhase.Tags, HybridPhase.Outage, HybridPhase.Deploy], settings.Phases);
    }

    [Fact]
    public void ToSettings_ShortWithPhaseOptions_OptionsOverTheShortMode()
    {
        HybridSettings settings = Settings("--short", "--phases", "outage,Tags", "--tags", "4", "--tag-every", "20ms", "--tags-duration", "1s", "--outage-duration", "2s", "--outage-for", "500ms", "--deploy-duration", "3s");

        Assert.Equal([HybridPhase.Outage, HybridPhase.Tags], settings.Phases);
        Assert.Equal((4, TimeSpan.FromMilliseconds(20), TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(3)),
            (settings.Tags, settings.TagEvery, settings.TagsDuration, settings.OutageDuration, settings.OutageFor, settings.DeployDuration));
        Assert.Equal((TimeSpan.FromSeconds(1), 20), (settings.Duration, settings.Keys));
        settings.Validate();
    }

    [Fact]
    public void ToSettings_ShortFaultsWithOptions_OptionsOverTheShortMode()
    {
        HybridSettings settings = Settings("--short", "--phases", "steady,faults", "--faults-memory", "8", "--pressure-for", "3s", "--freeze-past", "200ms", "--kill-for", "1s");

        Assert.Equal([HybridPhase.Steady, HybridPhase.Faults], settings.Phases);
        Assert.Equal((8, TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(200), TimeSpan.FromSeconds(1)), (settings.FaultMemoryMegabytes, settings.PressureFor, settings.FreezePast, settings.KillFor));
        Assert.Equal((TimeSpan.FromSeconds(0.3), TimeSpan.FromSeconds(0.7)), (settings.FaultLead, settings.FaultTail));
        Assert.Equal(TimeSpan.FromSeconds(2.2), settings.FaultFreeze);
        settings.Validate();
    }

    [Fact]
    public void Validate_FaultsBeforeAnotherPhase_ArgumentExceptionSayingItRunsLast()
    {
        HybridSettings settings = new HybridSettings() with { Phases = [HybridPhase.Faults, HybridPhase.Steady] };

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);

        Assert.Equal("--phases names faults before another phase; faults runs on servers of its own, after the others.", error.Message);
    }

    [Fact]
    public void Validate_OutageLongerThanHalfItsPhase_ArgumentExceptionNamingTheOption()
    {
        HybridSettings settings = new HybridSettings() with { OutageDuration = TimeSpan.FromSeconds(3), OutageFor = TimeSpan.FromSeconds(2) };

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);

        Assert.Equal("--outage-duration is 00:00:03; it must be at least twice --outage-for (00:00:02) and at most 1 hour.", error.Message);
    }

    [Fact]
    public void ParsePhase_UnknownName_ArgumentExceptionNamingTheChoices()
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() => HybridSettings.ParsePhase("warmup"));

        Assert.Equal("--phases: 'warmup' is not a phase; use steady, tags, outage, deploy, faults.", error.Message);
    }

    [Fact]
    public void ToSettings_ShortWithOptions_OptionsOverTheShortMode()
    {
        HybridSettings settings = Settings("--short", "--clients", "2", "--keys", "5", "--update-every", "50ms", "--duration", "2s", "--contenders", "strict,Fusion-Locker");

        Assert.Equal((2, 4, 5, true), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Short));
        Assert.Equal((TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(2)), (settings.UpdateEvery, settings.Duration));
        Assert.Equal([HybridContender.Strict, HybridContender.FusionLocker], settings.Contenders);
        settings.Validate();
    }

    [Fact]
    public void ParseContender_UnknownName_ArgumentExceptionNamingTheChoices()
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() => HybridSettings.ParseContender("redis"));

        Assert.Equal("--contenders: 'redis' is not a contender; use bounded, strict, microsoft-memcached, microsoft-redis, fusion-backplane, fusion-locker.", error.Message);
    }
}
