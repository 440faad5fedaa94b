using System.Buffers;
using System.Text;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>The package's own HybridCache on one server of a farm against real memcached: levels, flags, serializers,
/// registration (docs/hybrid.md).</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheTests(MemcachedServerFixture fixture)
{
    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Fact]
    public async Task GetOrCreateAsync_RepeatedOnOneServer_RunsFactoryOnceThenServesL1WithoutRequest()
    {
        // memcached servers of its own, the entry on one that holds neither the log nor *'s record, so that its read
        // count is the entry's alone (the poller reads hc:seq every half bound and hc:tag:* once a second); and a bound
        // the poller's last complete poll cannot age out of between the reads on a loaded machine (an L1 copy is then
        // checked against memcached).
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using var third = MemcachedServer.Start();
        using var farm = new HybridFarm([first, second, third], 1, o => o.InvalidationBound = TimeSpan.FromSeconds(4));
        await farm.UntilPolledAsync();
        MemcachedServer entries = new[] { first, second, third }.First(s => s.Endpoint != farm.LogsNode && s.Endpoint != farm.NodeOf("hc:tag:*"));
        string key = farm.KeyOn(entries.Endpoint, "hybrid-once");
        int calls = 0;
        ValueTask<string> Read(HybridCacheEntryOptions? options = null) =>
            farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult($"v{Interlocked.Increment(ref calls)}"), options);
        long before = await ReadsOnServerAsync(farm.Client(0), entries);

        string made = await Read(); // a miss at both levels: the lease's read, then the factory
        long afterMade = await ReadsOnServerAsync(farm.Client(0), entries);
        string[] hits = [await Read(), await Read(), await Read(), await Read()];
        long afterHits = await ReadsOnServerAsync(farm.Client(0), entries);

        // The same read past L1 is counted: the lease's read of the entry.
        string past = await Read(new HybridCacheEntryOptions { Flags = HybridCacheEntryFlags.DisableLocalCacheRead });
        long afterPast = await ReadsOnServerAsync(farm.Client(0), entries);

        Assert.Equal(1, calls);
        Assert.Equal(["v1", "v1", "v1", "v1", "v1", "v1"], [made, .. hits, past]);
        Assert.Equal((1, 0, 1), (afterMade - before, afterHits - afterMade, afterPast - afterHits));
        Assert.Equal(1, farm.Internal(0).Local.Count);
    }

    /// <summary>memcached's own count of the reads of items it ran (<c>cmd_get</c>: every key of a <c>get</c>, <c>gets</c>
    /// or <c>mg</c>, hit or miss, in 1.6.18).</summary>
    private static async Task<long> ReadsOnServerAsync(MemcachedClient client, MemcachedServer server) =>
        long.Parse((await client.GetStatsAsync())[server.Endpoint]["cmd_get"], System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public async Task GetOrCreateAsync_SecondServer_ReadsL2WithoutFactory()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        string key = Key("hybrid-l2");
        int calls = 0;
        string first = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}"), tags: ["a", "b"]);
        string second = await farm[1].GetOrCreateAsync(key, _ => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}"));

        Assert.Equal("made 1", first);
        Assert.Equal("made 1", second);
        Assert.Equal(1, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_L1Miss_ReadsTheEntryOnceThroughTheLeaseHitOrMiss()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-one-read");
        using var meters = ClientMeterListener.ForPort(fixture.Primary.Port, "db.client.operation.duration");

        string made = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult("made")); // a miss at both levels
        string read = await farm[1].GetOrCreateAsync(key, _ => ValueTask.FromResult("not made")); // an L1 miss, an L2 hit

        // The poller's reads of the log are "get"s; a plain read of the entry before the lease would be a "gets".
        string[] reads = [.. meters.Measurements.Select(static m => (string)m.Tag("db.operation.name")!).Where(static o => o is "gets" or "get_or_create")];
        Assert.Equal(("made", "made"), (made, read));
        Assert.Equal(["get_or_create", "get_or_create"], reads);
    }

    [Fact]
    public async Task GetOrCreateAsync_StrictModeL1CopyOfALeasedHit_NextHitChecksTheCasTokenOnly()
    {
        using var farm = new HybridFarm(fixture.Primary, 2, o => o.L1Coherence = HybridCacheCoherence.Strict);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-strict-leased");
        await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult("made"));
        Assert.Equal("made", await farm[1].GetOrCreateAsync(key, _ => ValueTask.FromResult("not made"))); // read by the lease

        using var meters = ClientMeterListener.ForPort(fixture.Primary.Port, "db.client.operation.duration");
        Assert.Equal("made", await farm[1].GetOrCreateAsync(key, _ => ValueTask.FromResult("not made")));

        // The lease kept the item's CAS token with the L1 copy, so the hit needs no read of the value.
        string[] requests = [.. meters.Measurements.Select(static m => (string)m.Tag("db.operation.name")!).Where(static o => o is "gets" or "get_or_create" or "cas_check")];
        Assert.Equal(["cas_check"], requests);
    }

    [Fact]
    public async Task GetOrCreateAsync_ConcurrentCallersOnFourServers_OneFactoryCall()
    {
        using var farm = new HybridFarm(fixture.Primary, 4);
        string key = Key("hybrid-stampede");
        int calls = 0;
        async ValueTask<string> Factory(CancellationToken token)
        {
            Interlocked.Increment(ref calls);
            await Task.Delay(50, token);
            return "built";
        }

        string[] results = await Task.WhenAll(Enumerable.Range(0, 32).Select(i => farm[i % 4].GetOrCreateAsync(key, Factory).AsTask()));

        Assert.Equal(1, calls);
        Assert.All(results, r => Assert.Equal("built", r));
    }

    [Fact]
    public async Task GetOrCreateAsync_DisableUnderlyingDataOnMiss_ReturnsDefaultWithoutFactory()
    {
        using var farm = new HybridFarm(fixture.Primary, 1);
        int calls = 0;
        int value = await farm[0].GetOrCreateAsync(Key("hybrid-nodata"), _ => ValueTask.FromResult(++calls + 41),
            new HybridCacheEntryOptions { Flags = HybridCacheEntryFlags.DisableUnderlyingData });

        Assert.Equal(0, value);
        Assert.Equal(0, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_DisableDistributedCache_NothingStoredInMemcached()
    {
        using var farm = new HybridFarm(fixture.Primary, 1);
        await farm.UntilPolledAsync(); // a copy read before the first poll is not kept: what it missed is unknown
        string key = Key("hybrid-nol2");
        string value = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult("local only"),
            new HybridCacheEntryOptions { Flags = HybridCacheEntryFlags.DisableDistributedCache });

        Assert.Equal("local only", value);
        Assert.False((await farm.Client(0).Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
        Assert.Equal(1, farm.Internal(0).Local.Count);
    }

    [Fact]
    public async Task GetOrCreateAsync_KeyLongerThanMaximumKeyLength_RunsFactoryEveryTimeAndCachesNothing()
    {
        using var farm = new HybridFarm(fixture.Primary, 1, o => o.MaximumKeyLength = 20);
        string key = Key("hybrid-long-key-beyond-twenty");
        int calls = 0;
        await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(++calls));
        int second = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(++calls));

        Assert.Equal(2, second);
        Assert.False((await farm.Client(0).Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
    }

    [Fact]
    public async Task GetOrCreateAsync_PayloadOverMaximumPayloadBytes_ReturnedNotCached()
    {
        using var farm = new HybridFarm(fixture.Primary, 1, o => o.MaximumPayloadBytes = 100);
        string key = Key("hybrid-large");
        string large = new('x', 500);
        string value = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(large));

        Assert.Equal(large, value);
        Assert.False((await farm.Client(0).Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
        Assert.Equal(0, farm.Internal(0).Local.Count);
    }

    [Fact]
    public async Task GetOrCreateAsync_MutableType_EachCallGetsItsOwnCopyFromL1()
    {
        using var farm = new HybridFarm(fixture.Primary, 1);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-mutable");
        List<int> first = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new List<int> { 1, 2 }));
        first.Add(3);
        List<int> second = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new List<int>()));

        Assert.Equal([1, 2], second);
    }

    [Fact]
    public async Task GetOrCreateAsync_RegisteredSerializer_WritesAndReadsTheEntry()
    {
        var serializer = new PointSerializer();
        using var farm = new HybridFarm(fixture.Primary, 2, services: s => s.AddSingleton<IHybridCacheSerializer<Point>>(serializer));
        string key = Key("hybrid-serializer");
        await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new Point(3, 4)));
        Point read = await farm[1].GetOrCreateAsync(key, _ => ValueTask.FromResult(new Point(0, 0)));

        Assert.Equal(new Point(3, 4), read);
        Assert.Equal(1, serializer.Serialized);
    }

    [Fact]
    public async Task GetOrCreateAsync_MoreKeysThanMaximumLocalEntries_L1StaysWithinTheLimit()
    {
        using var farm = new HybridFarm(fixture.Primary, 1, o => o.MaximumLocalEntries = 10);
        await farm.UntilPolledAsync();
        string prefix = Key("hybrid-limit");
        for (int i = 0; i < 30; i++)
        {
            Assert.Equal(i, await farm[0].GetOrCreateAsync($"{prefix}:{i}", _ => ValueTask.FromResult(i)));
            Assert.InRange(farm.Internal(0).Local.Count, 1, 10);
        }
    }

    [Fact]
    public async Task GetOrCreateAsync_AfterLocalCacheExpiration_ReadsMemcachedNotTheFactory()
    {
        // The second read must be an L1 hit, so neither the copy nor the poller's last complete poll may have aged out
        // meanwhile on a loaded machine (a 100 ms copy and a 50 ms bound once did, between two reads and a stats call).
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, o => o.InvalidationBound = TimeSpan.FromSeconds(4));
        await farm.UntilPolledAsync();
        string key = Key("hybrid-local-expiry");
        var options = new HybridCacheEntryOptions { Expiration = TimeSpan.FromMinutes(1), LocalCacheExpiration = TimeSpan.FromSeconds(1) };
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");
        await farm[0].GetOrCreateAsync(key, Factory, options);
        long hits = await GetHitsAsync(farm.Client(0));
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory, options));
        Assert.Equal(hits, await GetHitsAsync(farm.Client(0)));

        await Poll.UntilAsync(() => !farm.Internal(0).Local.TryGet(key, out _), "the L1 copy's local expiration");
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory, options));
        Assert.Equal(hits + 1, await GetHitsAsync(farm.Client(0)));
        Assert.Equal(1, calls);
    }

    private static async Task<long> GetHitsAsync(MemcachedClient client) =>
        long.Parse((await client.GetStatsAsync()).Single().Value["get_hits"], System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public void AddMemcachedHybridCache_BoundOutOfRange_RefusedAtResolveNamingTheOption()
    {
        var services = new ServiceCollection();
        services.AddMemcached(o => o.Servers.Add(fixture.Primary.Endpoint));
        services.AddMemcachedHybridCache(o => o.InvalidationBound = TimeSpan.Zero);
        using ServiceProvider provider = services.BuildServiceProvider();

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => provider.GetRequiredService<HybridCache>());
        Assert.Equal("MemcachedHybridCacheOptions.InvalidationBound is 00:00:00; it must be more than zero and at most one minute.", ex.Message);
    }

    [Fact]
    public void AddMemcachedHybridCache_WithoutClient_RefusedWithTheFix()
    {
        var services = new ServiceCollection();
        InvalidOperationException ex = Assert.Throws<InvalidOperationException>(() => services.AddMemcachedHybridCache());
        Assert.Equal("AddMemcachedHybridCache found no memcached client: call services.AddMemcached(...) before it.", ex.Message);
    }

    [Fact]
    public async Task AddKeyedMemcachedHybridCache_NamedClient_StoresOnThatClientsServer()
    {
        var services = new ServiceCollection();
        services.AddMemcached(o => o.Servers.Add(fixture.Servers[0].Endpoint));
        services.AddKeyedMemcached("second", o => o.Servers.Add(fixture.Servers[1].Endpoint));
        services.AddKeyedMemcachedHybridCache("second");
        using ServiceProvider provider = services.BuildServiceProvider();
        HybridCache cache = provider.GetRequiredKeyedService<HybridCache>("second");
        string key = Key("hybrid-keyed");
        await cache.GetOrCreateAsync(key, _ => ValueTask.FromResult("on the second"));

        MemcachedClient second = provider.GetRequiredKeyedService<MemcachedClient>("second");
        MemcachedClient first = provider.GetRequiredService<MemcachedClient>();
        Assert.True((await second.Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
        Assert.False((await first.Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
    }

    internal sealed record Point(int X, int Y);

    private sealed class PointSerializer : IHybridCacheSerializer<Point>
    {
        private int _serialized;

        public int Serialized => Volatile.Read(ref _serialized);

        public Point Deserialize(ReadOnlySequence<byte> source)
        {
            string[] parts = Encoding.ASCII.GetString(source.ToArray()).Split(',');
            return new Point(int.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture), int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture));
        }

        public void Serialize(Point value, IBufferWriter<byte> target)
        {
            Interlocked.Increment(ref _serialized);
            target.Write(Encoding.ASCII.GetBytes($"{value.X},{value.Y}"));
        }
    }
}
