using System.Diagnostics;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>With three or more memcached servers the invalidation log has three copies, and no one server's loss blinds
/// the farm (issue 44, item 2; docs/hybrid.md, "Several memcached servers"): appends complete on two copies, polls on two,
/// so the server of <c>hc:seq</c> freezing or dying is no outage, and a removal of a key that lives there still reaches
/// every L1 and every poller's pending changes. Each test has memcached servers of its own, since it freezes or kills one.</summary>
public sealed class MemcachedHybridCacheReplicatedLogTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task Log_OneOfFourServersFrozen_EveryPollerKeepsCompletingOutOfOutage(int frozenCopy)
    {
        // Before: the log lived on hc:seq's server alone; its freeze put every server into outage (every L1 copy served
        // unchecked: 395 stale reads in Bounded, 1,501 in Strict in the run), and no poll completed until it thawed.
        using var servers = MemcachedServers.Start(4);
        MemcachedServer[] nodes = servers.All;
        using var farm = new HybridFarm(nodes, 2, o => o.InvalidationBound = TimeSpan.FromSeconds(1), client: o =>
        {
            o.OperationTimeout = TimeSpan.FromMilliseconds(400);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        await farm.UntilPolledAsync();
        string[] copies = CopiesOf(farm, 0);
        Assert.Equal(copies, CopiesOf(farm, 1)); // every web server picks the same three
        Assert.Equal(farm.LogsNode, copies[0]);
        Assert.Equal(3, copies.Distinct().Count());
        MemcachedServer frozen = frozenCopy < 3
            ? servers.At(copies[frozenCopy])
            : nodes.Single(n => !copies.Contains(n.Endpoint)); // the one server that holds no copy

        frozen.Pause();
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(1)); // past the operation timeout: the frozen copy's reads failed
            await farm.UntilPolledAgainAsync();

            Assert.False(farm.Internal(0).Log.InOutage);
            Assert.False(farm.Internal(1).Log.InOutage);
        }
        finally
        {
            frozen.Resume();
        }
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task RemoveAsync_KeyOnTheFrozenServerOfTheLogsPrimary_OtherServersStopServingTheirCopy(HybridCacheCoherence mode)
    {
        // Before: the key's delete and its log item both went to the frozen server; every other server was in outage and
        // served its L1 copy (the CAS check of the key could not be made either): "v0".
        using var servers = MemcachedServers.Start(3);
        MemcachedServer[] nodes = servers.All;
        using var farm = new HybridFarm(nodes, 2, o => o.L1Coherence = mode, client: o =>
        {
            o.OperationTimeout = TimeSpan.FromMilliseconds(400);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        await farm.UntilPolledAsync();
        MemcachedServer primary = servers.At(farm.LogsNode);
        string key = farm.KeyOn(primary.Endpoint, "hybrid-primary-frozen");
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read));

        primary.Pause();
        try
        {
            row.Update();
            await farm[0].RemoveAsync(key); // the delete times out; the item (K) is written to the two mirrors

            Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, row.Read));
            Assert.True(farm.Internal(1).Pending.Holds(key)); // learnt from the log: the frozen server may keep v0
        }
        finally
        {
            primary.Resume();
        }
    }

    [Fact]
    public async Task RemoveAsync_KeyOnTheDeadServerOfTheLogsPrimaryAndItsMakerRestarted_NoServerReadsTheOldValueItComesBackWith()
    {
        // Before: the removal could be neither deleted nor logged; other servers served their L1 copies through the outage,
        // and the removal was kept only in the process that made it, so its restart lost it: the old value came back.
        using var servers = MemcachedServers.Start(3);
        MemcachedServer[] nodes = servers.All;
        Action<MemcachedClientOptions> client = o => o.ServerDownInterval = TimeSpan.FromMilliseconds(200);
        using var maker = new HybridFarm(nodes, 1, client: client);
        using var readers = new HybridFarm(nodes, 2, client: client);
        await maker.UntilPolledAsync();
        await readers.UntilPolledAsync();
        MemcachedServer primary = nodes.Single(n => n.Endpoint == maker.LogsNode);
        string key = maker.KeyOn(primary.Endpoint, "hybrid-primary-dead");
        var row = new Row();
        Assert.Equal("v0", await maker[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await readers[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await readers[1].GetOrCreateAsync(key, row.Read));
        byte[] entry = (await readers.Client(0).GetAsync<byte[]>(key)).Value!;

        primary.Kill();
        row.Update();
        await maker[0].RemoveAsync(key); // refused by the key's server and by the primary; logged on the two mirrors
        maker.Dispose(); // the web server that made it restarts before the server is back

        string[] whileDead = [await readers[0].GetOrCreateAsync(key, row.Read), await readers[1].GetOrCreateAsync(key, row.Read)];

        primary.Restart();
        using (var missedTheDelete = new MemcachedClient(new MemcachedClientOptions { Servers = { primary.Endpoint } }))
        {
            Assert.Equal(MemcachedStoreResult.Stored, await missedTheDelete.SetAsync(key, entry)); // back with the old value
        }

        string probe = readers.KeyOn(primary.Endpoint, "probe");
        await MemcachedServerFixture.SetUntilStoredAsync(readers.Client(0), probe, "x", "the readers using the server again");
        await MemcachedServerFixture.SetUntilStoredAsync(readers.Client(1), probe, "x", "the readers using the server again");
        string[] afterItsReturn = [await readers[0].GetOrCreateAsync(key, row.Read), await readers[1].GetOrCreateAsync(key, row.Read)];

        Assert.Equal(["v1", "v1"], whileDead);
        Assert.Equal(["v1", "v1"], afterItsReturn);
    }

    [Fact]
    public async Task RemoveByTagAsync_AMirrorsServerFrozen_CompletesWithoutWaitingForItAndEveryServerRefusesTheTagsEntries()
    {
        // A removal is complete on two of the three copies: the frozen one is not waited for (its requests would take the
        // 10 s operation timeout), and a server that reads the log on the other two refuses the tag's entries.
        using var servers = MemcachedServers.Start(3);
        MemcachedServer[] nodes = servers.All;
        using var farm = new HybridFarm(nodes, 2, client: o =>
        {
            o.OperationTimeout = TimeSpan.FromSeconds(10);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        await farm.UntilPolledAsync();
        string mirror = CopiesOf(farm, 0)[2];
        MemcachedServer frozen = servers.At(mirror);
        string key = farm.KeyOn(mirror, "hybrid-mirror-frozen", on: false);
        string tag = farm.TagOff(mirror);
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]));

        frozen.Pause();
        try
        {
            row.Update();
            var clock = Stopwatch.StartNew();
            await farm[0].RemoveByTagAsync(tag);
            clock.Stop();

            Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]));
            Assert.Equal(0, farm.Internal(0).Pending.Count); // taken: not made again
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"the removal took {clock.Elapsed}");
        }
        finally
        {
            frozen.Resume();
        }
    }

    [Fact]
    public async Task RemoveByTagAsync_LogsPrimaryServerDead_EveryServerRefusesTheTagsEntriesUntilTheRemovalIsMadeAgain()
    {
        // A tag's removal needs the primary's sequence. Without it, before, the removal was kept by its maker alone, and
        // every other server (whose poller reads the two mirrors) went on serving the tag's entries: "v0".
        using var servers = MemcachedServers.Start(3);
        MemcachedServer[] nodes = servers.All;
        using var farm = new HybridFarm(nodes, 2, client: o => o.ServerDownInterval = TimeSpan.FromMilliseconds(200));
        await farm.UntilPolledAsync();
        MemcachedServer primary = servers.At(farm.LogsNode);
        string key = farm.KeyOn(primary.Endpoint, "hybrid-tag-primary-dead", on: false);
        string tag = farm.TagOff(primary.Endpoint);
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]));

        primary.Kill();
        row.Update();
        await farm[0].RemoveByTagAsync(tag); // not complete: the mirrors are told, with no sequence

        string whileDead = await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]);
        int pendingWhileDead = farm.Internal(1).Pending.Count;

        primary.Restart();
        await Poll.UntilAsync(() => farm.Internal(0).Pending.Count == 0 && farm.Internal(1).Pending.Count == 0, "both servers making the removal again");
        await farm.UntilPolledAgainAsync();
        int readsBefore = row.Reads;
        string[] afterItsReturn = [
            await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]),
        ];

        Assert.Equal("v1", whileDead);
        Assert.Equal(1, pendingWhileDead); // learnt from the mirrors: made again by this server too
        Assert.Equal(["v1", "v1", "v1", "v1"], afterItsReturn);
        Assert.Equal(1, row.Reads - readsBefore); // the entry made while suspended is refused once, then served
    }

    [Fact]
    public async Task GetOrCreateAsync_TagSuspendedWhileThePrimaryIsDead_EachServerMakesTheValueOnceAndServesItsCopy()
    {
        // Before: while a tag was suspended every read of its entries ran the factory (refused at both levels): 6 calls
        // for 6 reads here. A copy this server made after the suspension began is served from L1.
        using var servers = MemcachedServers.Start(3);
        using var farm = new HybridFarm(servers.All, 2, o => o.InvalidationBound = TimeSpan.FromSeconds(1), client: o => o.ServerDownInterval = TimeSpan.FromSeconds(30));
        await farm.UntilPolledAsync();
        MemcachedServer primary = servers.At(farm.LogsNode);
        string key = farm.KeyOn(primary.Endpoint, "hybrid-suspended-copies", on: false);
        string tag = farm.TagOff(primary.Endpoint);
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]));

        primary.Kill();
        row.Update();
        await farm[0].RemoveByTagAsync(tag); // suspended on both servers
        int before = row.Reads;
        string[] reads = [
            await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[1].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]),
            await farm[0].GetOrCreateAsync(key, row.Read, tags: [tag]),
        ];

        Assert.Equal(["v1", "v1", "v1", "v1", "v1", "v1"], reads);
        Assert.Equal(2, row.Reads - before);
    }

    private static string[] CopiesOf(HybridFarm farm, int server) => [.. farm.Internal(server).Log.Servers.Select(static n => n.Name)];
}
