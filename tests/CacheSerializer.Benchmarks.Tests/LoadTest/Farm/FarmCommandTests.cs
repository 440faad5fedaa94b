using System.CommandLine;
using CacheSerializer.LoadTest.Cli;
using CacheSerializer.LoadTest.Farm;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Farm;

public sealed class FarmCommandTests
{
    private static FarmSettings Settings(params string[] args)
    {
        ParseResult result = LoadTestCommand.Create().Parse(["farm", .. args]);
        Assert.Empty(result.Errors);
        return FarmCommand.ToSettings(result);
    }

    [Fact]
    public void ToSettings_NoOptions_DocumentedDefaults()
    {
        FarmSettings settings = Settings();

        Assert.Equal((5, 200, 4), (settings.Clients, settings.CallersPerClient, settings.HotKeys));
        Assert.Equal((TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(20), TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(10)),
            (settings.ExpireEvery, settings.Duration, settings.FactoryTime, settings.LockTimeout));
        Assert.Equal([FarmMode.Plain, FarmMode.Hybrid, FarmMode.Farm, FarmMode.FarmStale], settings.Modes);
        Assert.Equal((1, 20261124UL, "loadtest-results", false), (settings.Nodes, settings.Seed, settings.OutputDirectory, settings.Short));
    }

    [Fact]
    public void ToSettings_EveryOption_OverridesTheShortMode()
    {
        FarmSettings settings = Settings("--short", "--clients", "7", "--callers", "30", "--hot-keys", "1", "--expire-every", "500ms",
            "--duration", "3s", "--factory-time", "20ms", "--lock-timeout", "2s", "--modes", "farm,Plain", "--nodes", "2", "--seed", "9", "--output", "out");

        Assert.Equal((7, 30, 1, true), (settings.Clients, settings.CallersPerClient, settings.HotKeys, settings.Short));
        Assert.Equal((TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(20), TimeSpan.FromSeconds(2)),
            (settings.ExpireEvery, settings.Duration, settings.FactoryTime, settings.LockTimeout));
        Assert.Equal([FarmMode.Farm, FarmMode.Plain], settings.Modes);
        Assert.Equal((2, 9UL, "out"), (settings.Nodes, settings.Seed, settings.OutputDirectory));
        settings.Validate();
    }

    [Fact]
    public void ToSettings_ShortAlone_ShortModeValues()
    {
        FarmSettings settings = Settings("--short");

        Assert.Equal((3, 20, 2, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(8)),
            (settings.Clients, settings.CallersPerClient, settings.HotKeys, settings.ExpireEvery, settings.Duration));
    }

    [Fact]
    public void ToSettings_UnknownMode_ThrowsNamingTheModes()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["farm", "--modes", "plain,lease"]);

        ArgumentException error = Assert.Throws<ArgumentException>(() => FarmCommand.ToSettings(result));
        Assert.Equal("--modes: 'lease' is not a mode; use plain, hybrid, farm, farm-stale.", error.Message);
    }

    [Theory]
    [InlineData("--clients 0", "--clients is 0; it must be between 1 and 64.")]
    [InlineData("--expire-every 50ms", "--expire-every is 00:00:00.0500000; it must be between 100 ms and 10 minutes.")]
    [InlineData("--duration 1s", "--duration is 00:00:01; it must be at least --expire-every (00:00:02) and at most 1 hour.")]
    [InlineData("--factory-time 2s", "--factory-time is 00:00:02; it must be from 0 to below --expire-every (00:00:02).")]
    public void Validate_OutOfRange_ThrowsNamingTheOption(string args, string message)
    {
        FarmSettings settings = Settings(args.Split(' '));

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.Equal(message, error.Message);
    }
}
