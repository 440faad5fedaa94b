using System.Buffers;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>
/// Two builds of an application during a rolling deploy, each with its own HybridCache over one real memcached
/// (docs/hybrid.md, "Deploys: build copies"): the old build reads and writes <see cref="OrderBefore"/>, the new one
/// <see cref="OrderAfter"/> (a member added), under the same type alias, so each reads the other's entries as another
/// contract. Most calls here skip L1, so that what they show is memcached's.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheBuildCopiesTests(MemcachedServerFixture fixture)
{
    private static readonly HybridCacheEntryOptions L2Only = new() { Flags = HybridCacheEntryFlags.DisableLocalCache };

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Fact]
    public async Task GetOrCreateAsync_TwoBuildsAlternating_EachBuildsFactoryRunsOnceAndNeitherEvictsTheOther()
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 1);
        string key = Key("hybrid-copies");
        int oldCalls = 0, newCalls = 0;
        var read = new List<(string?, string?, int)>();

        for (int i = 0; i < 3; i++)
        {
            OrderBefore before = await builds.Old[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new OrderBefore { Name = $"old {Interlocked.Increment(ref oldCalls)}" }), L2Only);
            OrderAfter after = await builds.New[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new OrderAfter { Name = $"new {Interlocked.Increment(ref newCalls)}", Quantity = 1 }), L2Only);
            read.Add((before.Name, after.Name, after.Quantity));
        }

        Assert.Equal((1, 1), (oldCalls, newCalls));
        Assert.Equal([("old 1", "new 1", 1), ("old 1", "new 1", 1), ("old 1", "new 1", 1)], read);
    }

    [Fact]
    public async Task GetOrCreateAsync_NewBuildFirstThenOldBuild_OldBuildKeepsItsCopyToo()
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 1);
        string key = Key("hybrid-copies-back");
        int oldCalls = 0, newCalls = 0;
        ValueTask<OrderBefore> Old(CancellationToken _) => ValueTask.FromResult(new OrderBefore { Name = $"old {Interlocked.Increment(ref oldCalls)}" });
        ValueTask<OrderAfter> New(CancellationToken _) => ValueTask.FromResult(new OrderAfter { Name = $"new {Interlocked.Increment(ref newCalls)}", Quantity = 2 });

        Assert.Equal("new 1", (await builds.New[0].GetOrCreateAsync(key, New, L2Only)).Name);
        Assert.Equal("old 1", (await builds.Old[0].GetOrCreateAsync(key, Old, L2Only)).Name);
        Assert.Equal("old 1", (await builds.Old[0].GetOrCreateAsync(key, Old, L2Only)).Name);
        Assert.Equal("new 1", (await builds.New[0].GetOrCreateAsync(key, New, L2Only)).Name);

        Assert.Equal((1, 1), (oldCalls, newCalls));
    }

    [Fact]
    public async Task GetOrCreateAsync_OtherBuildsEntryTwoServersOfTheBuildAtOnce_OneFactoryCallForTheBuild()
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 2);
        string key = Key("hybrid-copies-farm");
        await builds.Old[0].SetAsync(key, new OrderBefore { Name = "v1" });
        int calls = 0;
        async ValueTask<OrderAfter> Slow(CancellationToken token)
        {
            Interlocked.Increment(ref calls);
            await Task.Delay(300, token);
            return new OrderAfter { Name = "v1", Quantity = 1 };
        }

        OrderAfter[] read = await Task.WhenAll(Enumerable.Range(0, 8).Select(i => builds.New[i % 2].GetOrCreateAsync(key, Slow, L2Only).AsTask()));

        Assert.Equal(1, calls);
        Assert.All(read, v => Assert.Equal(("v1", 1), (v.Name, v.Quantity)));
        Assert.Equal("v1", (await builds.Old[0].GetOrCreateAsync(key, _ => ValueTask.FromResult(new OrderBefore { Name = "from the factory" }), L2Only)).Name);
    }

    [Theory]
    [InlineData("old removes")]
    [InlineData("new removes")]
    [InlineData("old sets")]
    [InlineData("new sets")]
    public async Task GetOrCreateAsync_AfterAChangeByEitherBuild_NeitherBuildServesItsEntryFromBeforeIt(string change)
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 1);
        string key = Key("hybrid-copies-change");
        int version = 1, oldCalls = 0, newCalls = 0;
        ValueTask<OrderBefore> Old(CancellationToken _)
        {
            Interlocked.Increment(ref oldCalls);
            return ValueTask.FromResult(new OrderBefore { Name = $"v{Volatile.Read(ref version)}" });
        }

        ValueTask<OrderAfter> New(CancellationToken _)
        {
            Interlocked.Increment(ref newCalls);
            return ValueTask.FromResult(new OrderAfter { Name = $"v{Volatile.Read(ref version)}", Quantity = Volatile.Read(ref version) });
        }

        Assert.Equal("v1", (await builds.Old[0].GetOrCreateAsync(key, Old, L2Only)).Name);
        Assert.Equal("v1", (await builds.New[0].GetOrCreateAsync(key, New, L2Only)).Name);

        Volatile.Write(ref version, 2);
        switch (change)
        {
            case "old removes":
                await builds.Old[0].RemoveAsync(key);
                break;
            case "new removes":
                await builds.New[0].RemoveAsync(key);
                break;
            case "old sets":
                await builds.Old[0].SetAsync(key, new OrderBefore { Name = "v2" }, L2Only);
                break;
            default:
                await builds.New[0].SetAsync(key, new OrderAfter { Name = "v2", Quantity = 2 }, L2Only);
                break;
        }

        OrderBefore before = await builds.Old[0].GetOrCreateAsync(key, Old, L2Only);
        OrderAfter after = await builds.New[0].GetOrCreateAsync(key, New, L2Only);
        Assert.Equal(("v2", "v2", 2), (before.Name, after.Name, after.Quantity));

        // The build that set needs no factory call for the new version; the other runs its own once, as after a removal.
        Assert.Equal((change == "old sets" ? 1 : 2, change == "new sets" ? 1 : 2), (oldCalls, newCalls));

        // And the new version stands for both: no further factory call.
        Assert.Equal("v2", (await builds.Old[0].GetOrCreateAsync(key, Old, L2Only)).Name);
        Assert.Equal("v2", (await builds.New[0].GetOrCreateAsync(key, New, L2Only)).Name);
        Assert.Equal((change == "old sets" ? 1 : 2, change == "new sets" ? 1 : 2), (oldCalls, newCalls));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    public async Task RemoveByTagAsync_FromEitherBuild_BothBuildsEntriesOfTheTagRecreatedOthersKept(int remover)
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 1);
        string tagged = Key("hybrid-copies-tag");
        string untagged = Key("hybrid-copies-tag");
        string tag = Key("tag");
        int oldCalls = 0, newCalls = 0;
        ValueTask<OrderBefore> Old(CancellationToken _) => ValueTask.FromResult(new OrderBefore { Name = $"old {Interlocked.Increment(ref oldCalls)}" });
        ValueTask<OrderAfter> New(CancellationToken _) => ValueTask.FromResult(new OrderAfter { Name = $"new {Interlocked.Increment(ref newCalls)}", Quantity = 1 });
        async Task<(string?, string?, string?, string?)> ReadAllAsync() => (
            (await builds.Old[0].GetOrCreateAsync(tagged, Old, L2Only, [tag])).Name,
            (await builds.New[0].GetOrCreateAsync(tagged, New, L2Only, [tag])).Name,
            (await builds.Old[0].GetOrCreateAsync(untagged, Old, L2Only)).Name,
            (await builds.New[0].GetOrCreateAsync(untagged, New, L2Only)).Name);

        Assert.Equal(("old 1", "new 1", "old 2", "new 2"), await ReadAllAsync());

        await (remover == 0 ? builds.Old[0] : builds.New[0]).RemoveByTagAsync(tag);

        Assert.Equal(("old 3", "new 3", "old 2", "new 2"), await ReadAllAsync());
        Assert.Equal(("old 3", "new 3", "old 2", "new 2"), await ReadAllAsync());
        Assert.Equal((3, 3), (oldCalls, newCalls));
    }

    [Fact]
    public async Task GetOrCreateAsync_StrictModeCopyInL1_ServedUntilTheOtherBuildRemovesTheEntry()
    {
        using Builds builds = await Builds.StartAsync(fixture, newServers: 1, HybridCacheCoherence.Strict);
        string key = Key("hybrid-copies-strict");
        int version = 1, calls = 0;
        ValueTask<OrderAfter> New(CancellationToken _) =>
            ValueTask.FromResult(new OrderAfter { Name = $"v{Volatile.Read(ref version)}", Quantity = Interlocked.Increment(ref calls) });
        await builds.Old[0].SetAsync(key, new OrderBefore { Name = "v1" });

        // In Strict mode the set returns at once: until the new build's poller has applied its log item, a copy read
        // there is not kept in L1 (what it read may be older than the set), which would leave L1 empty below.
        await builds.New.UntilPolledAgainAsync();
        Assert.Equal(("v1", 1), Read(await builds.New[0].GetOrCreateAsync(key, New))); // the copy, made through the lease
        Assert.Equal(("v1", 1), Read(await builds.New[0].GetOrCreateAsync(key, New))); // read from L2, kept in L1 with the entry's CAS
        Assert.Equal(("v1", 1), Read(await builds.New[0].GetOrCreateAsync(key, New))); // an L1 hit, checked against that CAS
        Assert.Equal(1, builds.New.Internal(0).Local.Count);

        Volatile.Write(ref version, 2);
        await builds.Old[0].RemoveAsync(key);

        Assert.Equal(("v2", 2), Read(await builds.New[0].GetOrCreateAsync(key, New)));
        Assert.Equal(2, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_OneBuildRegistersASerializerForTheType_EachBuildKeepsItsOwnEntry()
    {
        // A build that adds an IHybridCacheSerializer<string> writes the value another way than the build before it,
        // which reads the other's entries as another contract: each keeps its own.
        using var transcoded = new HybridFarm(fixture.Primary, 1);
        using var serialized = new HybridFarm(fixture.Primary, 1, services: s => s.AddSingleton<IHybridCacheSerializer<string>>(new Utf8Serializer()));
        await Task.WhenAll(transcoded.UntilPolledAsync(), serialized.UntilPolledAsync());
        string key = Key("hybrid-copies-serializer");
        int transcodedCalls = 0, serializedCalls = 0;
        var read = new List<(string, string)>();

        for (int i = 0; i < 3; i++)
        {
            read.Add((
                await transcoded[0].GetOrCreateAsync(key, _ => ValueTask.FromResult($"transcoded {Interlocked.Increment(ref transcodedCalls)}"), L2Only),
                await serialized[0].GetOrCreateAsync(key, _ => ValueTask.FromResult($"serialized {Interlocked.Increment(ref serializedCalls)}"), L2Only)));
        }

        Assert.Equal((1, 1), (transcodedCalls, serializedCalls));
        Assert.Equal([("transcoded 1", "serialized 1"), ("transcoded 1", "serialized 1"), ("transcoded 1", "serialized 1")], read);
    }

    private static (string?, int) Read(OrderAfter value) => (value.Name, value.Quantity);

    private sealed class Utf8Serializer : IHybridCacheSerializer<string>
    {
        public string Deserialize(ReadOnlySequence<byte> source) => Encoding.UTF8.GetString(source);

        public void Serialize(string value, IBufferWriter<byte> target) => target.Write(Encoding.UTF8.GetBytes(value));
    }

    /// <summary>A farm of each build, every server past its first complete poll of the invalidation log: an entry is
    /// judged against tags removed before it only once its server knows the log's sequence.</summary>
    private sealed class Builds(HybridFarm old, HybridFarm @new) : IDisposable
    {
        public HybridFarm Old => old;

        public HybridFarm New => @new;

        public static async Task<Builds> StartAsync(MemcachedServerFixture fixture, int newServers, HybridCacheCoherence mode = HybridCacheCoherence.Bounded)
        {
            var builds = new Builds(
                new HybridFarm(fixture.Primary, 1, o => o.L1Coherence = mode, client: o => o.Transcoder = DeployBuilds.OldBuild()),
                new HybridFarm(fixture.Primary, newServers, o => o.L1Coherence = mode, client: o => o.Transcoder = DeployBuilds.NewBuild()));
            await Task.WhenAll(builds.Old.UntilPolledAsync(), builds.New.UntilPolledAsync());
            return builds;
        }

        public void Dispose()
        {
            old.Dispose();
            @new.Dispose();
        }
    }
}
