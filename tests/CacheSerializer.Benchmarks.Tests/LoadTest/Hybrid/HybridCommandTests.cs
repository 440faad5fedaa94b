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
