using System.Globalization;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The four defects issue 19 found by fault-testing the client, each in the scenario that found it.</summary>
public sealed class MemcachedClientDefectTests
{
    public static TheoryData<string, double> FarFutureExpirations => new()
    {
        { "12 years", TimeSpan.FromDays(365 * 12).TotalSeconds },
        { "20 years", TimeSpan.FromDays(365 * 20).TotalSeconds },
        { "TimeSpan.MaxValue", TimeSpan.MaxValue.TotalSeconds },
    };

    [Theory]
    [MemberData(nameof(FarFutureExpirations))]
    public async Task SetAsync_ExpirationBeyond2038_EntryIsKeptUntil2038(string name, double seconds)
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        TimeSpan expiration = seconds >= TimeSpan.MaxValue.TotalSeconds ? TimeSpan.MaxValue : TimeSpan.FromSeconds(seconds);
        string key = "far:" + name;

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "kept", expiration));

        Assert.Equal("kept", (await client.GetAsync<string>(key)).Value);
        long remaining = (await client.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
        long untilCap = int.MaxValue - DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        Assert.InRange(remaining, untilCap - 5, untilCap + 5); // memcached counts the TTL to 2038-01-19T03:14:07Z
    }

    [Fact]
    public void ToTtl_BeyondTheLastRepresentableSecond_IsCappedAtInt32MaxValue()
    {
        long now = 1_795_000_000; // 2026-11-18

        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.FromDays(365 * 20), now));
        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.MaxValue, now));
        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.FromSeconds(int.MaxValue - now), now));
        Assert.Equal(int.MaxValue - 1, Expiration.ToTtl(TimeSpan.FromSeconds(int.MaxValue - now - 1), now));
        Assert.Equal(now + Expiration.MaxRelativeSeconds + 1, Expiration.ToTtl(TimeSpan.FromSeconds(Expiration.MaxRelativeSeconds + 1), now));
        Assert.Equal(Expiration.MaxRelativeSeconds, Expiration.ToTtl(TimeSpan.FromSeconds(Expiration.MaxRelativeSeconds), now));
    }

    public static TheoryData<string> FarFutureAbsoluteExpirations => new() { "2040-01-01T00:00:00Z", "2100-01-01T00:00:00Z", "9999-12-31T23:59:59Z" };

    [Theory]
    [MemberData(nameof(FarFutureAbsoluteExpirations))]
    public async Task DistributedCacheSet_AbsoluteExpirationBeyond2038_EntryIsKept(string at)
    {
        using var server = MemcachedServer.Start();
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(o => o.Servers.Add(server.Endpoint)).BuildServiceProvider();
        IDistributedCache cache = provider.GetRequiredService<IDistributedCache>();
        var options = new DistributedCacheEntryOptions { AbsoluteExpiration = DateTimeOffset.Parse(at, CultureInfo.InvariantCulture) };

        await cache.SetAsync("far:" + at, [4, 2], options);

        Assert.Equal([4, 2], await cache.GetAsync("far:" + at));
    }

    [Fact]
    public async Task DistributedCacheSet_RelativeAndSlidingTimeSpanMaxValue_EntryIsKeptAndReadsDoNotTouchIt()
    {
        using var server = MemcachedServer.Start();
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(o => o.Servers.Add(server.Endpoint)).BuildServiceProvider();
        IDistributedCache cache = provider.GetRequiredService<IDistributedCache>();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();

        await cache.SetAsync("far:relative", [1], new DistributedCacheEntryOptions { AbsoluteExpirationRelativeToNow = TimeSpan.MaxValue });
        await cache.SetAsync("far:sliding", [2], new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.MaxValue });
        IReadOnlyDictionary<string, string> before = (await client.GetStatsAsync())[server.Endpoint];

        Assert.Equal([1], await cache.GetAsync("far:relative"));
        Assert.Equal([2], await cache.GetAsync("far:sliding"));
        IReadOnlyDictionary<string, string> after = (await client.GetStatsAsync())[server.Endpoint];
        Assert.Equal(long.Parse(before["cmd_touch"], CultureInfo.InvariantCulture), long.Parse(after["cmd_touch"], CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task SetsInFlight_ServerKilled_EveryWrittenSetFailsAsConnectionBrokenNotServerDown()
    {
        // The server is frozen so that every set is written and none is answered, then killed while other callers keep
        // sending: the connections break, a reconnect is refused and marks the server down (breaking any connection not
        // yet broken), and no written set may claim it was "not sent".
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(InFlightOptions(server, TimeSpan.FromSeconds(30)));
        await Task.WhenAll(Enumerable.Range(0, 40).Select(i => client.SetAsync($"warm:{i}", "v"))); // opens the 4 connections
        server.Pause();
        Task<MemcachedStoreResult>[] sets = Enumerable.Range(0, 400).Select(i => client.SetAsync($"inflight:{i}", "v")).ToArray();
        await Task.Delay(500); // the write threads send them all; the frozen server's socket buffers take them
        using var stop = new CancellationTokenSource();
        var racerKinds = new List<MemcachedErrorKind>();
        var racer = Task.Run(async () =>
        {
            for (int i = 0; !stop.IsCancellationRequested; i++)
            {
                try
                {
                    await client.SetAsync($"racer:{i}", "v");
                }
                catch (MemcachedException ex)
                {
                    lock (racerKinds)
                    {
                        racerKinds.Add(ex.Kind);
                    }
                }
            }
        });

        server.Kill();
        MemcachedException[] errors = await Task.WhenAll(sets.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.Burst);
        await Task.Delay(200);
        await stop.CancelAsync();
        await racer.WaitAsync(Bound.Burst);

        Assert.All(errors, e => Assert.Equal(MemcachedErrorKind.ConnectionBroken, e.Kind));
        Assert.All(errors, e => Assert.Contains("may or may not have been applied", e.Message, StringComparison.Ordinal));
        Assert.Contains(MemcachedErrorKind.ServerDown, racerKinds); // the server was marked down meanwhile
    }

    [Fact]
    public async Task SetsInFlight_ServerFrozenPastTheTimeout_OneTimeoutAndEveryOtherWrittenSetConnectionBroken()
    {
        // The oldest request times out, which breaks its connection and marks the server down; marking it down breaks the
        // other connections, whose written sets are ConnectionBroken (the server may have applied them), not ServerDown.
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(InFlightOptions(server, TimeSpan.FromSeconds(1)));
        await Task.WhenAll(Enumerable.Range(0, 40).Select(i => client.SetAsync($"warm:{i}", "v")));
        server.Pause();
        try
        {
            Task<MemcachedStoreResult>[] sets = Enumerable.Range(0, 400).Select(i => client.SetAsync($"frozen:{i}", "v")).ToArray();

            MemcachedException[] errors = await Task.WhenAll(sets.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.Burst);

            Assert.Single(errors, e => e.Kind == MemcachedErrorKind.Timeout);
            Assert.Equal(399, errors.Count(e => e.Kind == MemcachedErrorKind.ConnectionBroken));
        }
        finally
        {
            server.Resume();
        }
    }

    private static MemcachedClientOptions InFlightOptions(MemcachedServer server, TimeSpan operationTimeout) => new()
    {
        Servers = { server.Endpoint },
        ConnectionsPerServer = 4,
        OperationTimeout = operationTimeout,
        ServerDownInterval = TimeSpan.FromSeconds(30),
        OnServerFailure = ServerFailurePolicy.Throw,
    };

    [Fact]
    public async Task Get_ReplyDeclaringOneGiB_IsAProtocolErrorAndNothingIsAllocatedForIt()
    {
        using var liar = FakeMemcachedServer.DeclaringValueOf(1L << 30);
        var options = new MemcachedClientOptions { Servers = { liar.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw };
        await using var client = new MemcachedClient(options);
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k")).WaitAsync(Bound.Burst);

        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        Assert.Equal(MemcachedErrorKind.ProtocolError, ex.Kind);
        Assert.Equal(
            $"get on {liar.Endpoint}: protocol error: a VA reply declares a 1073741824-byte value, above the 1049600-byte limit of this connection (MemcachedClientOptions.MaxValueSize plus 1024 bytes); nothing was read into memory for it; the connection was closed.",
            ex.Message);
        Assert.True(allocated < 64L * 1024 * 1024, $"{allocated:N0} bytes were allocated while the reply was read");
    }
}
