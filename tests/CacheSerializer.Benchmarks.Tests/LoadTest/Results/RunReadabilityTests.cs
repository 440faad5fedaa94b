using CacheSerializer.LoadTest.Results;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Results;

public sealed class RunReadabilityTests
{
    [Fact]
    public void Warnings_QuietMachineLongPassesCloseRepeat_None()
    {
        var check = new RunReadability(2, 0.8, 1.5, 12_000, "CacheSerializer", 1000, 1050);

        Assert.True(check.Readable);
        Assert.Empty(check.Warnings);
        Assert.Equal(50 / Math.Sqrt(2) / 1025, check.Variation!.Value, precision: 12);
    }

    [Fact]
    public void Warnings_LoadAboveTheCores_SaysTheMachineWasLoaded()
    {
        var check = new RunReadability(2, 6.5, 1.0, 12_000, "CacheSerializer", 1000, 1000);

        Assert.Equal(
            ["the machine was loaded: 1-minute load average 6.5 at the start and 1.0 at the end on 2 cores, so other processes took part of the CPU the passes measure"],
            check.Warnings);
    }

    [Fact]
    public void Warnings_FewOperations_SaysTheRunIsTooShort()
    {
        var check = new RunReadability(2, null, null, 420, null, 0, 0);

        Assert.Equal(["the run is too short: a pass did 420 operations (fewer than 1,000); use a longer --duration"], check.Warnings);
        Assert.Null(check.Variation);
    }

    [Fact]
    public void Warnings_RepeatFarFromTheFirstPass_GivesTheCoefficientOfVariation()
    {
        // 1,000 and 1,500 ops/s: sample standard deviation 353.6, mean 1,250, coefficient of variation 28%.
        var check = new RunReadability(2, 1.0, 1.0, 5_000, "BSON", 1000, 1500);

        Assert.Equal(
            ["the repeat of BSON ran at 1,500 ops/s against 1,000 the first time (coefficient of variation 28%, more than 10%): ratios closer to 1 than that are noise"],
            check.Warnings);
    }
}
