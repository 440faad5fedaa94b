using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The default failure policy (<see cref="ServerFailurePolicy.Miss"/>): a cache outage never fails a cache
/// call, against servers that are missing, killed and restarted.</summary>
public sealed class MemcachedClientOutageTests
{
    private static MemcachedClientOptions Options(string server, Action<MemcachedClientOptions>? configure = null)
    {
        var options = new MemcachedClientOptions
        {
            Servers = { server },
            ConnectTimeout = TimeSpan.FromSeconds(1),
            OperationTimeout = TimeSpan.FromSeconds(2),
            ServerDownInterval = TimeSpan.FromMilliseconds(300),
        };
        configure?.Invoke(options);
        return options;
    }

    [Fact]
    public async Task EveryCacheCall_NoServerListening_ReturnsItsFailureResultWithoutThrowing()
    {
        await using var client = new MemcachedClient(Options($"127.0.0.1:{MemcachedServer.FreePort()}"));

        Assert.False((await client.GetAsync<string>("k")).Found);
        Assert.Null(await client.GetValueAsync<string>("k"));
        Assert.False((await client.GetWithCasAsync<string>("k")).Found);
        Assert.False((await client.GetAndTouchAsync<string>("k", TimeSpan.FromMinutes(1))).Found);
        Assert.Empty(await client.GetManyAsync<string>(["k", "l"]));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.SetAsync("k", "v"));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.AddAsync("k", "v"));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.ReplaceAsync("k", "v"));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.AppendAsync("k", "v"u8.ToArray()));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.PrependAsync("k", "v"u8.ToArray()));
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.CasAsync("k", "v", 7));
        Assert.False(await client.DeleteAsync("k"));
        Assert.False(await client.TouchAsync("k", TimeSpan.FromMinutes(1)));
        Assert.Null(await client.IncrementAsync("k", 1, 5));
        Assert.Null(await client.DecrementAsync("k", 1, 5));
        Assert.Empty(await client.GetStatsAsync());
    }

    [Fact]
    public async Task FlushAll_NoServerListening_ThrowsUnderEitherPolicy()
    {
        // A flush that did not happen must be known: it is not a cache call the outage policy may swallow.
        await using var client = new MemcachedClient(Options($"127.0.0.1:{MemcachedServer.FreePort()}"));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.FlushAllAsync());

        Assert.Equal("flush_all", ex.Operation);
        Assert.Contains(ex.Kind, new[] { MemcachedErrorKind.ConnectFailed, MemcachedErrorKind.ServerDown });
    }

    [Fact]
    public async Task ProgrammingErrors_UnderMissPolicy_StillThrow()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(Options(server.Endpoint, o => o.MaxValueSize = 1000));

        await Assert.ThrowsAsync<ArgumentNullException>(() => client.GetAsync<string>(null!));
        await Assert.ThrowsAsync<ArgumentNullException>(() => client.SetAsync(null!, "v"));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => client.SetAsync("k", "v", TimeSpan.FromSeconds(-1)));
        MemcachedException tooLarge = await Assert.ThrowsAsync<MemcachedException>(() => client.AppendAsync("k", new byte[1001]));
        Assert.Equal(MemcachedErrorKind.ValueTooLarge, tooLarge.Kind);
        await Assert.ThrowsAsync<TranscoderException>(() => client.SetAsync("k", new byte[1001]));
    }

    [Fact]
    public async Task DistributedCache_NoServerListening_EveryMethodCompletesWithoutThrowing()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddMemcached(o =>
            {
                o.Servers.Add($"127.0.0.1:{MemcachedServer.FreePort()}");
                o.ConnectTimeout = TimeSpan.FromSeconds(1);
            })
            .BuildServiceProvider();
        IDistributedCache cache = provider.GetRequiredService<IDistributedCache>();
        var entry = new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(1) };

        await cache.SetAsync("k", [1, 2], entry);
        cache.Set("k", [1, 2], entry);
        Assert.Null(await cache.GetAsync("k"));
        Assert.Null(cache.Get("k"));
        await cache.RefreshAsync("k");
        cache.Refresh("k");
        await cache.RemoveAsync("k");
        cache.Remove("k");
    }

    [Fact]
    public async Task ThrowPolicy_NoServerListening_ReadsAndWritesThrowNamingTheServer()
    {
        int port = MemcachedServer.FreePort();
        await using var client = new MemcachedClient(Options($"127.0.0.1:{port}", o => o.OnServerFailure = ServerFailurePolicy.Throw));

        MemcachedException read = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        MemcachedException write = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync("k", "v"));

        Assert.Equal((MemcachedErrorKind.ConnectFailed, $"127.0.0.1:{port}", "get"), (read.Kind, read.Server, read.Operation));
        Assert.Equal((MemcachedErrorKind.ServerDown, "set"), (write.Kind, write.Operation));
    }

    [Fact]
    public async Task ServerKilledAndRestarted_OutageLoggedOnceAtStartAndOnceAtEnd_CountedOnce_CallsNeverThrow()
    {
        using var server = MemcachedServer.Start();
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        using var meters = ClientMeterListener.ForPort(server.Port, "cacheserializer.memcached.outages");
        await using var client = new MemcachedClient(Options(server.Endpoint), loggerFactory);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("outage:k", "before"));

        server.Kill();
        var results = new List<MemcachedStoreResult>();
        for (int i = 0; i < 50; i++)
        {
            results.Add(await client.SetAsync($"outage:{i}", "during"));
            Assert.False((await client.GetAsync<string>($"outage:{i}")).Found);
        }

        server.Restart();
        await MemcachedServerFixture.SetUntilStoredAsync(client, "outage:k", "after", "the client uses the restarted server again");

        Assert.All(results, r => Assert.Equal(MemcachedStoreResult.ServerFailure, r));
        Assert.Equal("after", (await client.GetAsync<string>("outage:k")).Value);
        (LogLevel Level, string Message)[] down = logs.Entries.Where(e => e.Message.Contains($"memcached server {server.Endpoint} is down", StringComparison.Ordinal)).ToArray();
        (LogLevel Level, string Message)[] back = logs.Entries.Where(e => e.Message.Contains($"memcached server {server.Endpoint} is back up", StringComparison.Ordinal)).ToArray();
        Assert.Equal(LogLevel.Warning, Assert.Single(down).Level);
        Assert.Equal(LogLevel.Information, Assert.Single(back).Level);
        int failed = int.Parse(System.Text.RegularExpressions.Regex.Match(back[0].Message, @"; (\d+) calls failed or missed meanwhile").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(failed, 100, 10_000); // the 50 sets and 50 gets at least, plus the retries above
        Assert.Equal(1, meters.Sum("cacheserializer.memcached.outages"));
        Assert.DoesNotContain(logs.Entries, e => e.Level >= LogLevel.Error);
    }

    [Fact]
    public async Task ServerFrozenPastTheTimeout_ProbedAfterAQuarterOfTheIntervalThenEveryInterval()
    {
        // A timeout (a frozen, paused or swapping server) is the outage most likely to end at once: the first probe comes
        // after a quarter of ServerDownInterval (here 1 s of 4 s), where a refused connect waits the whole interval.
        using var server = MemcachedServer.Start();
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs));
        await using var client = new MemcachedClient(Options(server.Endpoint, o =>
        {
            o.OperationTimeout = TimeSpan.FromMilliseconds(300);
            o.ServerDownInterval = TimeSpan.FromSeconds(4);
        }), loggerFactory);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("frozen:k", "v"));

        server.Pause();
        try
        {
            Assert.False((await client.GetAsync<string>("frozen:k")).Found); // times out: marked down
        }
        finally
        {
            server.Resume();
        }

        var clock = System.Diagnostics.Stopwatch.StartNew();
        await Poll.UntilAsync(async () => (await client.GetAsync<string>("frozen:k")).Found, "the client reading the server again");

        Assert.InRange(clock.Elapsed, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(3)); // was 4 s at least
        Assert.Contains(logs.Entries, e => e.Message.StartsWith($"memcached server {server.Endpoint} is down, probed in 1000 ms and then every 4000 ms;", StringComparison.Ordinal));
    }
}
