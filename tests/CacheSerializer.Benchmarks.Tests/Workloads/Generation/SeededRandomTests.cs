using CacheSerializer.Workloads.Generation;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Generation;

public class SeededRandomTests
{
    [Fact]
    public void NextUInt64_SeedZero_MatchesTheReferenceSplitMix64()
    {
        // The first outputs of the reference splitmix64.c (Vigna, prng.di.unimi.it) with its state set to 0.
        var random = new SeededRandom(0);

        Assert.Equal(0xE220A8397B1DCDAFUL, random.NextUInt64());
        Assert.Equal(0x6E789E6AA1B965F4UL, random.NextUInt64());
        Assert.Equal(0x06C45D188009454FUL, random.NextUInt64());
    }

    [Fact]
    public void Next_ManyDraws_StayInRangeAndReachBothEnds()
    {
        var random = new SeededRandom(42);
        var seen = new HashSet<int>();

        for (int i = 0; i < 1000; i++)
        {
            int value = random.Next(5, 41);
            Assert.InRange(value, 5, 40);
            seen.Add(value);
        }

        Assert.Equal(36, seen.Count);
    }

    [Fact]
    public void NextUInt64OfRandomLength_ManyDraws_CoverShortAndFullLengthValues()
    {
        var random = new SeededRandom(7);
        var lengths = new HashSet<int>();

        for (int i = 0; i < 2000; i++)
        {
            lengths.Add(64 - System.Numerics.BitOperations.LeadingZeroCount(random.NextUInt64OfRandomLength()));
        }

        Assert.Equal(Enumerable.Range(1, 64), lengths.Order());
    }

    [Fact]
    public void NextUtcMilliseconds_Always_IsUtcWholeMillisecondsInRange()
    {
        var random = new SeededRandom(3);
        var from = new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        for (int i = 0; i < 100; i++)
        {
            DateTime value = random.NextUtcMilliseconds(from, from.AddDays(1));
            Assert.Equal(DateTimeKind.Utc, value.Kind);
            Assert.Equal(0, value.Ticks % TimeSpan.TicksPerMillisecond);
            Assert.InRange(value, from, from.AddDays(1));
        }
    }

    [Fact]
    public void NextGuid_Always_IsVersion4()
    {
        var random = new SeededRandom(9);

        Assert.Equal(4, random.NextGuid().Version);
    }
}
