using System.Globalization;
using System.Text;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The IDistributedCache contract: get, set, refresh, remove, absolute and sliding expiry, cancellation.</summary>
public sealed class MemcachedDistributedCacheTests : IDisposable
{
    private readonly MemcachedServer _server = MemcachedServer.Start();
    private readonly ServiceProvider _provider;
    private readonly IDistributedCache _cache;
    private readonly MemcachedClient _client;

    public MemcachedDistributedCacheTests()
    {
        _provider = new ServiceCollection().AddMemcached(o => o.Servers.Add(_server.Endpoint)).BuildServiceProvider();
        _cache = _provider.GetRequiredService<IDistributedCache>();
        _client = _provider.GetRequiredService<MemcachedClient>();
    }

    public void Dispose()
    {
        _provider.Dispose();
        _server.Dispose();
    }

    private static byte[] Bytes(string s) => Encoding.UTF8.GetBytes(s);

    [Fact]
    public async Task SetGetRemove_RoundTripThenGone()
    {
        await _cache.SetAsync("dc:a", Bytes("value"), new DistributedCacheEntryOptions());

        Assert.Equal(Bytes("value"), await _cache.GetAsync("dc:a"));
        await _cache.RemoveAsync("dc:a");
        Assert.Null(await _cache.GetAsync("dc:a"));
        Assert.Null(await _cache.GetAsync("dc:never"));
    }

    [Fact]
    public void SyncMethods_Work()
    {
        _cache.Set("dc:sync", Bytes("s"), new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(1) });
        _cache.Refresh("dc:sync");

        Assert.Equal(Bytes("s"), _cache.Get("dc:sync"));
        _cache.Remove("dc:sync");
        Assert.Null(_cache.Get("dc:sync"));
    }

    [Fact]
    public async Task EmptyValue_IsAHitNotNull()
    {
        await _cache.SetAsync("dc:empty", [], new DistributedCacheEntryOptions());

        byte[]? value = await _cache.GetAsync("dc:empty");

        Assert.NotNull(value);
        Assert.Empty(value);
    }

    [Fact]
    public async Task Expirations_AbsoluteSlidingAndCapped_BehaveAsDocumented()
    {
        // Run side by side so the test waits about 24 seconds in all. memcached's clock moves in whole seconds, so an item
        // with a TTL of N seconds lives between N-1 and N: every read that expects the item comes at least 2 seconds
        // before N-1, so a read delayed by a busy machine still finds what it should.
        await Task.WhenAll(AbsoluteExpires(), SlidingKeptAliveByReadsThenExpires(), SlidingCappedByAbsolute(), RefreshSlides());
    }

    private async Task AbsoluteExpires()
    {
        // A 10 s TTL: the read right after the set may come seconds late on a loaded machine (a 4 s TTL lost it once,
        // with a load test running beside the suite on 2 cores) and must still find the item.
        await _cache.SetAsync("dc:abs", Bytes("x"), new DistributedCacheEntryOptions { AbsoluteExpirationRelativeToNow = TimeSpan.FromSeconds(10) });
        Assert.NotNull(await _cache.GetAsync("dc:abs"));
        await Task.Delay(10200);
        Assert.Null(await _cache.GetAsync("dc:abs"));
    }

    private async Task SlidingKeptAliveByReadsThenExpires()
    {
        // A 10 s window read every second: a read delayed by up to 7 s on a loaded machine (one delayed by over 4 s lost a
        // 6 s window in a busy repeated run) still finds the item.
        await _cache.SetAsync("dc:slide", Bytes("x"), new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromSeconds(10) });
        for (int i = 0; i < 12; i++)
        {
            await Task.Delay(1000);
            Assert.NotNull(await _cache.GetAsync("dc:slide"));
        }

        // Twelve seconds after it was set it is alive only because the reads moved its TTL; now let it lapse.
        await Task.Delay(11200);
        Assert.Null(await _cache.GetAsync("dc:slide"));
    }

    private async Task SlidingCappedByAbsolute()
    {
        await _cache.SetAsync("dc:capped", Bytes("x"), new DistributedCacheEntryOptions
        {
            SlidingExpiration = TimeSpan.FromSeconds(30),
            AbsoluteExpirationRelativeToNow = TimeSpan.FromSeconds(10),
        });
        await Task.Delay(1000);
        Assert.NotNull(await _cache.GetAsync("dc:capped"));
        await Task.Delay(9500);
        Assert.Null(await _cache.GetAsync("dc:capped"));
    }

    private async Task RefreshSlides()
    {
        // A 10 s window refreshed every second, 12 seconds in all: alive past its window only because each refresh slid
        // it, and a refresh delayed by up to 8 s on a loaded machine still finds the item (a 5 s window lost it once).
        await _cache.SetAsync("dc:refresh", Bytes("x"), new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromSeconds(10) });
        for (int i = 0; i < 12; i++)
        {
            await Task.Delay(1000);
            await _cache.RefreshAsync("dc:refresh");
        }

        Assert.NotNull(await _cache.GetAsync("dc:refresh"));
    }

    [Fact]
    public async Task SlidingRead_AtMostTwoCommands_AndNoCompanionKey()
    {
        await _cache.SetAsync("dc:count", Bytes("x"), new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromSeconds(100) });
        await _client.TouchAsync("dc:count", TimeSpan.FromSeconds(50)); // so the next read must slide it
        using var meters = ClientMeterListener.ForPort(_server.Port, "db.client.operation.duration");

        await _cache.GetAsync("dc:count");
        await _cache.GetAsync("dc:count");

        string[] commands = [.. meters.Measurements.Select(static m => (string)m.Tag("db.operation.name")!)]; // before the stats below
        Assert.Equal(["get", "touch", "get"], commands); // the second read finds the TTL already slid: one command
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await _client.GetStatsAsync();
        Assert.Equal("1", stats[_server.Endpoint]["curr_items"]);
    }

    public static TheoryData<string> FarFutureAbsoluteExpirations => new() { "2040-01-01T00:00:00Z", "2100-01-01T00:00:00Z", "9999-12-31T23:59:59Z" };

    [Theory]
    [MemberData(nameof(FarFutureAbsoluteExpirations))]
    public async Task SetAsync_AbsoluteExpirationBeyond2038_EntryIsKept(string at)
    {
        var options = new DistributedCacheEntryOptions { AbsoluteExpiration = DateTimeOffset.Parse(at, CultureInfo.InvariantCulture) };

        await _cache.SetAsync("far:" + at, [4, 2], options);

        Assert.Equal([4, 2], await _cache.GetAsync("far:" + at));
    }

    [Fact]
    public async Task SetAsync_RelativeAndSlidingTimeSpanMaxValue_EntryIsKeptAndReadsDoNotTouchIt()
    {
        await _cache.SetAsync("far:relative", [1], new DistributedCacheEntryOptions { AbsoluteExpirationRelativeToNow = TimeSpan.MaxValue });
        await _cache.SetAsync("far:sliding", [2], new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.MaxValue });
        IReadOnlyDictionary<string, string> before = (await _client.GetStatsAsync())[_server.Endpoint];

        Assert.Equal([1], await _cache.GetAsync("far:relative"));
        Assert.Equal([2], await _cache.GetAsync("far:sliding"));
        IReadOnlyDictionary<string, string> after = (await _client.GetStatsAsync())[_server.Endpoint];
        Assert.Equal(long.Parse(before["cmd_touch"], CultureInfo.InvariantCulture), long.Parse(after["cmd_touch"], CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task EveryMethod_HonoursCancellation()
    {
        using var cts = new CancellationTokenSource();
        await cts.CancelAsync();
        var options = new DistributedCacheEntryOptions();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _cache.GetAsync("dc:c", cts.Token));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _cache.SetAsync("dc:c", [1], options, cts.Token));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _cache.RefreshAsync("dc:c", cts.Token));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _cache.RemoveAsync("dc:c", cts.Token));
    }

    [Fact]
    public async Task SetAsync_AbsoluteInThePast_Throws()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => _cache.SetAsync("dc:past", [1],
            new DistributedCacheEntryOptions { AbsoluteExpiration = DateTimeOffset.UtcNow.AddSeconds(-1) }));
    }

    [Fact]
    public async Task GetAsync_ItemWrittenByTheClient_ReturnsItsBytes()
    {
        await _client.SetAsync("dc:raw", Bytes("raw"));

        Assert.Equal(Bytes("raw"), await _cache.GetAsync("dc:raw"));
    }
}
