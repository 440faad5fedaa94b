using System.Globalization;
using CacheSerializer.Benchmarks.Memcached;
using CacheSerializer.LocalServers;

namespace CacheSerializer.Benchmarks.Tests.Memcached;

/// <summary>Each mode of <c>sync-over-async</c>, short (1 s, 4 callers) on real servers: it runs its calls and prints its row.</summary>
public sealed class SyncOverAsyncExperimentTests
{
    public static TheoryData<string> Modes => [.. SyncOverAsyncExperiment.Modes];

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task RunModeAsync_ShortRun_RowWithCallsPerSecond(string mode)
    {
        using var memcached = MemcachedServer.Start();
        using RedisServer? redis = mode.StartsWith("redis", StringComparison.Ordinal) ? RedisServer.Start() : null;

        string row = await SyncOverAsyncExperiment.RunModeAsync(mode, redis?.Endpoint ?? memcached.Endpoint, seconds: 1, callers: 4);

        string[] cells = [.. row.Split('|', StringSplitOptions.TrimEntries)[1..^1]];
        Assert.Equal(12, cells.Length);
        Assert.Equal(mode, cells[0]);
        Assert.Equal(mode.StartsWith("enyim", StringComparison.Ordinal) || redis is not null ? "9 gets : 1 set" : "gets", cells[1]);
        Assert.True(double.Parse(cells[2], NumberStyles.AllowThousands, CultureInfo.InvariantCulture) > 0, row);
        Assert.Equal("0", cells[3]);
        Assert.True(double.Parse(cells[9], CultureInfo.InvariantCulture) > 0, row); // CPU per call
        Assert.True(double.Parse(cells[10], CultureInfo.InvariantCulture) >= 0, row); // context switches per call
        Assert.True(double.Parse(cells[11], NumberStyles.AllowThousands, CultureInfo.InvariantCulture) > 0, row); // bytes allocated per call
    }
}
