using System.Globalization;
using CacheSerializer.Benchmarks.Memcached;
using CacheSerializer.LocalServers;
using StackExchange.Redis;

namespace CacheSerializer.Benchmarks.Tests.Memcached;

/// <summary>The client benchmark's StackExchange.Redis loop, for a fraction of a second against a real redis-server
/// (Debian's, installed by scripts/test.sh): what it counts is what the server served, and a wrong value is caught.</summary>
public sealed class StackExchangeRedisContenderTests : IAsyncLifetime
{
    private const int ValueSize = 100;
    private readonly RedisServer _server = RedisServer.Start();
    private ConnectionMultiplexer _redis = null!;

    public async Task InitializeAsync()
    {
        ConfigurationOptions options = StackExchangeRedisContender.Options(_server.Endpoint);
        options.AllowAdmin = true; // INFO commandstats, read by the test; the loop sends only GET and SET
        _redis = await ConnectionMultiplexer.ConnectAsync(options);
    }

    public async Task DisposeAsync()
    {
        await _redis.DisposeAsync();
        _server.Dispose();
    }

    [Fact]
    public async Task DriveAsync_FilledKeys_EveryOperationReachesTheServerAndEveryValueKeepsItsBytes()
    {
        IDatabase database = _redis.GetDatabase();
        string[] keys = ClientBenchmark.Keys();
        byte[] value = ClientBenchmark.Value(ValueSize);
        await StackExchangeRedisContender.FillAsync(database, keys, value);
        long callsBefore = await GetAndSetCallsAsync();
        long[] histogram = new long[1_000_001];

        long operations = await StackExchangeRedisContender.DriveAsync(database, keys, value, concurrency: 4, TimeSpan.FromMilliseconds(500), histogram);

        Assert.True(operations > 0, "the loop did no operation in 0.5 s");
        Assert.Equal(operations, histogram.Sum());
        Assert.Equal(operations, await GetAndSetCallsAsync() - callsBefore);
        Assert.Equal(ClientBenchmark.KeyCount, keys.Length);
        Assert.All(keys, static key => Assert.Equal(ClientBenchmark.KeyLength, key.Length));
        RedisValue[] stored = await database.StringGetAsync([.. keys.Select(static k => (RedisKey)k)]);
        Assert.All(stored, stored => Assert.Equal(value, (byte[]?)stored));
    }

    [Fact]
    public async Task DriveAsync_ValueOfAnotherLength_ThrowsNamingTheKeyAndBothLengths()
    {
        IDatabase database = _redis.GetDatabase();
        string[] keys = ClientBenchmark.Keys();
        await StackExchangeRedisContender.FillAsync(database, keys, new byte[ValueSize - 1]);

        // Every key holds 99 bytes and the loop expects 100: the first get fails (a set before it fixes one key only).
        InvalidOperationException wrong = await Assert.ThrowsAsync<InvalidOperationException>(
            () => StackExchangeRedisContender.DriveAsync(database, keys, new byte[ValueSize], concurrency: 1, TimeSpan.FromSeconds(30), histogram: null));

        Assert.Matches(@"^wrong reply for bench:\d{10}:k{47}: 99 bytes instead of 100$", wrong.Message);
    }

    [Fact]
    public async Task DriveAsync_KeysNeverStored_ThrowsOnTheMiss()
    {
        IDatabase database = _redis.GetDatabase();

        InvalidOperationException miss = await Assert.ThrowsAsync<InvalidOperationException>(
            () => StackExchangeRedisContender.DriveAsync(database, ClientBenchmark.Keys(), new byte[ValueSize], concurrency: 1, TimeSpan.FromSeconds(30), histogram: null));

        Assert.Matches(@"^wrong reply for bench:\d{10}:k{47}: a miss$", miss.Message);
    }

    /// <summary>GET and SET calls redis-server has served so far (INFO commandstats: <c>cmdstat_get:calls=N,...</c>).</summary>
    private async Task<long> GetAndSetCallsAsync()
    {
        IGrouping<string, KeyValuePair<string, string>>[] info = await _redis.GetServer(_server.Endpoint).InfoAsync("commandstats");
        return info.SelectMany(static group => group)
            .Where(static stat => stat.Key is "cmdstat_get" or "cmdstat_set")
            .Sum(static stat => long.Parse(stat.Value.Split(',')[0]["calls=".Length..], CultureInfo.InvariantCulture));
    }
}
