using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>L1 coherence across the servers of a farm (docs/hybrid.md, "L1 coherence without Redis: the invalidation log"): after a removal returns
/// on one server, no server returns the old value, in both modes; a poller that cannot read the log stops L1.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheCoherenceTests(MemcachedServerFixture fixture)
{
    private const int Rounds = 40;

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task RemoveAsync_OnOneServer_NoServerReturnsTheOldValueAfterItReturns(HybridCacheCoherence mode)
    {
        using var farm = new HybridFarm(fixture.Primary, 3, o => o.L1Coherence = mode);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-remove");
        int version = 0;
        ValueTask<string> Database(CancellationToken _) => ValueTask.FromResult($"v{Volatile.Read(ref version)}");
        for (int round = 1; round <= Rounds; round++)
        {
            // Every server holds the current value in its L1, then the row changes and one server removes the entry.
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"v{round - 1}", await farm[i].GetOrCreateAsync(key, Database));
            }

            Volatile.Write(ref version, round);
            await farm[round % farm.Count].RemoveAsync(key);
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"v{round}", await farm[(i + round) % farm.Count].GetOrCreateAsync(key, Database));
            }
        }
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task SetAsync_OnOneServer_EveryServerReturnsTheNewValueAfterItReturns(HybridCacheCoherence mode)
    {
        using var farm = new HybridFarm(fixture.Primary, 3, o => o.L1Coherence = mode);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-set");
        int factoryCalls = 0;
        ValueTask<string> Never(CancellationToken _)
        {
            Interlocked.Increment(ref factoryCalls);
            return ValueTask.FromResult("from the factory");
        }

        await farm[0].SetAsync(key, "s0");
        for (int round = 1; round <= Rounds; round++)
        {
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"s{round - 1}", await farm[i].GetOrCreateAsync(key, Never));
            }

            await farm[round % farm.Count].SetAsync(key, $"s{round}");
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"s{round}", await farm[(i + round) % farm.Count].GetOrCreateAsync(key, Never));
            }
        }

        Assert.Equal(0, factoryCalls);
    }

    /// <summary>The farm workload, small: readers on every server all the time, a row changed and its entry
    /// removed or overwritten on a random server every 25 ms; each read must return a version no older than the last
    /// change whose removal had returned before the read began.</summary>
    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_ReadersBesideRemovalsOnEveryServer_NoReadOlderThanACompletedRemoval(HybridCacheCoherence mode)
    {
        using var farm = new HybridFarm(fixture.Primary, 3, o => o.L1Coherence = mode);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-workload");
        int version = 0;
        int completed = 0;
        int stale = 0;
        int reads = 0;
        ValueTask<int> Database(CancellationToken _) => ValueTask.FromResult(Volatile.Read(ref version));
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        Task[] readers = [.. Enumerable.Range(0, 12).Select(r => Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                int floor = Volatile.Read(ref completed);
                int read = await farm[r % farm.Count].GetOrCreateAsync(key, Database);
                Interlocked.Increment(ref reads);
                if (read < floor)
                {
                    Interlocked.Increment(ref stale);
                }
            }
        }))];
        var random = new Random(39);
        while (!stop.IsCancellationRequested)
        {
            int next = Interlocked.Increment(ref version);
            HybridCache server = farm[random.Next(farm.Count)];
            if (next % 2 == 0)
            {
                await server.RemoveAsync(key);
            }
            else
            {
                await server.SetAsync(key, next);
            }

            Volatile.Write(ref completed, next);
            await Task.Delay(25);
        }

        await Task.WhenAll(readers);
        Assert.True(Volatile.Read(ref reads) > 100, $"only {reads} reads");
        Assert.Equal(0, stale);
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_MemcachedKilledThenRestarted_LastValueServedDuringTheOutageAndL1DroppedAfter(HybridCacheCoherence mode)
    {
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, o => o.L1Coherence = mode);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-outage");
        string other = Key("hybrid-outage-other");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory));
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory));

        server.Kill();
        await Poll.UntilAsync(() => farm.Internal(0).Log.InOutage, "the poller finding the log unreachable");
        string during = await farm[0].GetOrCreateAsync(key, Factory);
        string notHeld = await farm[0].GetOrCreateAsync(other, Factory); // nothing to serve: the factory, no exception
        server.Restart();
        await Poll.UntilAsync(() => !farm.Internal(0).Log.InOutage, "the first complete poll after the restart");

        Assert.Equal("made 1", during);
        Assert.Equal("made 2", notHeld);
        Assert.False(farm.Internal(0).Local.TryGet(key, out _));
        Assert.False(farm.Internal(0).Local.TryGet(other, out _));
        Assert.Equal("made 3", await farm[0].GetOrCreateAsync(key, Factory));
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_MemcachedFrozenPastTheTimeoutDuringAMiss_AnotherServerLoadsAtOnceAfterIt(HybridCacheCoherence mode)
    {
        // The miss's lease read times out unanswered; memcached runs it when it wakes and sends its win to a closed
        // connection. Left there, that win would hold every server's callers of the key for LockTimeout (a minute here).
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 2, o =>
        {
            o.L1Coherence = mode;
            o.GetOrCreate = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) };
        }, client: o => o.OperationTimeout = TimeSpan.FromMilliseconds(400));
        await farm.UntilPolledAsync();
        string key = Key("hybrid-frozen-miss");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");

        server.Pause();
        string during;
        try
        {
            during = await farm[0].GetOrCreateAsync(key, Factory).AsTask().WaitAsync(Bound.NotStuck);
        }
        finally
        {
            server.Resume();
        }

        for (int i = 0; i < farm.Count; i++)
        {
            MemcachedClient client = farm.Client(i);
            await Poll.UntilAsync(async () => await client.SetAsync(Key("probe"), "v") == MemcachedStoreResult.Stored, "the server's client storing again");
        }

        await Poll.UntilAsync(() => !farm.Internal(0).Log.InOutage && !farm.Internal(1).Log.InOutage, "both servers' first complete poll after the freeze");
        string after = await farm[1].GetOrCreateAsync(key, Factory).AsTask().WaitAsync(TimeSpan.FromSeconds(10));

        Assert.Equal(("made 1", "made 2", 2), (during, after, calls));
        Assert.Equal("made 2", await farm[0].GetOrCreateAsync(key, Factory));
    }

    [Fact]
    public async Task GetOrCreateAsync_MemcachedKilledServeL1DuringOutageOff_L1FallsThrough()
    {
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, o => o.ServeL1DuringOutage = false);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-unreachable");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory));
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory));

        server.Kill();
        await Poll.UntilAsync(() => !farm.Internal(0).Log.IsFresh, "the poller's last complete poll older than the bound");

        Assert.Equal("made 2", await farm[0].GetOrCreateAsync(key, Factory));
        Assert.Equal(2, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_TagRemovalKnownBeforeTheOutage_EntryNotServedDuringIt()
    {
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 2);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-outage-tag");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");
        Assert.Equal("made 1", await farm[1].GetOrCreateAsync(key, Factory, tags: ["outage-tag"]));
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory, tags: ["outage-tag"]));

        // Server 0's poller learns the removal; its L1 copy outlives it only until judged (as an L1 hit would be).
        await farm[1].RemoveByTagAsync("outage-tag");
        server.Kill();
        await Poll.UntilAsync(() => farm.Internal(0).Log.InOutage, "the poller finding the log unreachable");

        Assert.Equal("made 2", await farm[0].GetOrCreateAsync(key, Factory, tags: ["outage-tag"]));
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task EveryCall_MemcachedDownUnderThrowPolicy_NeverThrowsAndRunsTheFactory(HybridCacheCoherence mode)
    {
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, o => o.L1Coherence = mode, client: o => o.OnServerFailure = ServerFailurePolicy.Throw);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-down");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory, tags: ["t"]));

        server.Kill();
        await farm[0].SetAsync(key, "set while down");
        await farm[0].RemoveAsync(key);
        await farm[0].RemoveByTagAsync("t");

        Assert.Equal("made 2", await farm[0].GetOrCreateAsync(key, Factory, tags: ["t"]));
        Assert.Equal(2, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_StrictAfterPlainClientDelete_SeesTheChangeAndL1HitsFetchNoValueBytes()
    {
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, o => o.L1Coherence = HybridCacheCoherence.Strict);
        await farm.UntilPolledAsync();
        using var plain = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        string key = Key("hybrid-strict");
        int calls = 0;
        ValueTask<byte[]> Factory(CancellationToken _)
        {
            int call = Interlocked.Increment(ref calls);
            return ValueTask.FromResult(Enumerable.Repeat((byte)call, 200 * 1024).ToArray());
        }

        // The fill's CAS token is unknown to the L1 copy, so the second read checks it, reads the entry once and keeps its token.
        await farm[0].GetOrCreateAsync(key, Factory);
        await farm[0].GetOrCreateAsync(key, Factory);
        long before = await BytesWrittenAsync(plain);
        for (int i = 0; i < 10; i++)
        {
            byte[] hit = await farm[0].GetOrCreateAsync(key, Factory);
            Assert.Equal(1, hit[^1]);
        }

        long written = await BytesWrittenAsync(plain) - before;
        Assert.True(written < 10_000, $"memcached wrote {written} bytes for 10 strict L1 hits of a 200 KB value");

        Assert.True(await plain.DeleteAsync(key));
        byte[] after = await farm[0].GetOrCreateAsync(key, Factory);
        Assert.Equal(2, after[0]);
        Assert.Equal(2, calls);
    }

    private static async Task<long> BytesWrittenAsync(MemcachedClient client) =>
        long.Parse((await client.GetStatsAsync()).Single().Value["bytes_written"], System.Globalization.CultureInfo.InvariantCulture);
}
