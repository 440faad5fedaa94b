using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>memcached is "evicted, never corrupted" (issue 44): any record the HybridCache keeps beside the entries may
/// vanish, any item expires on memcached's clock, and any one of several nodes may stop answering. Each of these costs
/// misses, never a value that a completed removal covered. Each test has memcached servers of its own, since it deletes
/// the farm's own records or freezes a server.</summary>
public sealed class MemcachedHybridCacheForgettingTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task GetOrCreateAsync_TagRecordEvictedAfterItsRemoval_ServerStartedAfterReadsTheNewValue(bool everything)
    {
        // Before: a missing hc:tag:<tag> read as "never removed", so a server that did not learn the removal from the log
        // (started after it, or whose tag table was dropped) served the removed entry.
        using var server = MemcachedServer.Start();
        string key = MemcachedServerFixture.UniqueKey("hybrid-evicted-tag");
        string tag = everything ? "*" : MemcachedServerFixture.UniqueKey("tag");
        string[] tags = everything ? [] : [tag]; // every entry is judged by "*"
        var row = new Row();
        using (var before = new HybridFarm(server, 1))
        {
            await before.UntilPolledAsync();
            Assert.Equal("v0", await before[0].GetOrCreateAsync(key, row.Read, tags: tags));
            row.Update();
            await before[0].RemoveByTagAsync(tag);
            Assert.True(await before.Client(0).DeleteAsync("hc:tag:" + tag)); // evicted, as LRU would
        }

        using var after = new HybridFarm(server, 2);
        Assert.Equal("v1", await after[0].GetOrCreateAsync(key, row.Read, tags: tags));

        // The record made anew does not refuse what is made after it: another server reads that entry, no factory call.
        Assert.Equal("v1", await after[1].GetOrCreateAsync(key, row.Read, tags: tags));
        Assert.Equal(2, row.Reads);
    }

    [Fact]
    public async Task GetOrCreateAsync_EntryReadWithLessLifeLeftThanItsLocalExpiration_LocalCopyEndsWithTheEntry()
    {
        // Before: a server kept a copy read with 3 s left for its own LocalCacheExpiration (a minute here) and served it
        // after memcached's item had expired and the row had changed.
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 2);
        await farm.UntilPolledAsync();
        string key = MemcachedServerFixture.UniqueKey("hybrid-local-lifetime");
        var row = new Row();
        await farm[0].SetAsync(key, "v0", new HybridCacheEntryOptions { Expiration = TimeSpan.FromSeconds(3) });
        var minute = new HybridCacheEntryOptions { Expiration = TimeSpan.FromMinutes(1), LocalCacheExpiration = TimeSpan.FromMinutes(1) };
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read, minute));
        Assert.Equal(1, farm.Internal(1).Local.Count);
        row.Update();

        await Task.Delay(TimeSpan.FromSeconds(4.5)); // memcached's item expired: 3 s, give or take its clock's second

        Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, row.Read, minute));
        Assert.Equal(1, row.Reads);
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_LogsServerFrozenAndTheKeysServerUp_CopyCheckedOnTheKeysServerNotServedStale(HybridCacheCoherence mode)
    {
        // Before: with the log's counter unreadable every server was in outage and served every L1 copy unchecked (395
        // stale reads in Bounded, 1,501 in Strict, in the run with 3 nodes), for keys on healthy nodes too.
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using var farm = new HybridFarm([first, second], 2, o => o.L1Coherence = mode, client: o =>
        {
            o.OperationTimeout = TimeSpan.FromMilliseconds(400);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        await farm.UntilPolledAsync();
        MemcachedServer frozen = farm.LogsNode == first.Endpoint ? first : second;
        string key = farm.KeyOn(frozen.Endpoint, "hybrid-healthy-node", on: false);
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read));

        frozen.Pause();
        try
        {
            await Poll.UntilAsync(() => farm.Internal(0).Log.InOutage && farm.Internal(1).Log.InOutage, "both servers in outage");
            row.Update();
            await farm[0].RemoveAsync(key); // deleted on the key's server; the log cannot be written

            Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, row.Read));
        }
        finally
        {
            frozen.Resume();
        }
    }

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_KeysServerDeadAndTheLogsUp_CopyServedUntilARemovalDropsItFactoryOncePerChange(HybridCacheCoherence mode)
    {
        // Before: in Strict mode an L1 copy whose CAS token could not be read was dropped, so while the key's server was
        // down every read ran the factory (up to 62 calls for one version of one key in the run with 3 nodes).
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        // A bound of a second: the copies are served only while the poller is fresh, which a loaded machine must not
        // make this test depend on.
        using var farm = new HybridFarm([first, second], 2, o =>
        {
            o.L1Coherence = mode;
            o.InvalidationBound = TimeSpan.FromSeconds(1);
        }, client: o => o.ServerDownInterval = TimeSpan.FromSeconds(30));
        await farm.UntilPolledAsync();
        MemcachedServer dead = farm.LogsNode == first.Endpoint ? second : first;
        string key = farm.KeyOn(dead.Endpoint, "hybrid-dead-node");
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read));

        dead.Kill();
        string[] before = [await farm[1].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read)];
        row.Update();
        await farm[0].RemoveAsync(key); // the delete fails; the log names the key
        string[] after = [await farm[1].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read)];

        Assert.Equal(["v0", "v0", "v0"], before);
        Assert.Equal(["v1", "v1", "v1"], after);

        // Strict cannot check a copy read from the key's server while it is down: it is read again once, through the
        // gutter (docs/hybrid.md, "The gutter"), where each later copy is checked.
        Assert.Equal(mode == HybridCacheCoherence.Strict ? 3 : 2, row.Reads);
    }

    [Fact]
    public async Task RemoveAsync_KeysServerDownAndItsMakerRestartedBeforeItIsBack_NoServerReadsTheOldValueItStillHolds()
    {
        // Before: a removal memcached did not take was kept only in the process that made it; that web server restarting
        // before the key's server came back (with the old value: here it missed the delete) lost it, and every other
        // server read the old value from it until it expired.
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        Action<MemcachedClientOptions> client = o => o.ServerDownInterval = TimeSpan.FromMilliseconds(200);
        using var maker = new HybridFarm([first, second], 1, client: client);
        using var reader = new HybridFarm([first, second], 1, client: client);
        await maker.UntilPolledAsync();
        await reader.UntilPolledAsync();
        MemcachedServer keys = maker.LogsNode == first.Endpoint ? second : first;
        string key = maker.KeyOn(keys.Endpoint, "hybrid-missed");
        var row = new Row();
        Assert.Equal("v0", await maker[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await reader[0].GetOrCreateAsync(key, row.Read));
        byte[] entry = (await reader.Client(0).GetAsync<byte[]>(key)).Value!;

        keys.Kill();
        row.Update();
        await maker[0].RemoveAsync(key); // refused by the key's server; the log names the key
        maker.Dispose(); // the web server restarts before the key's server is back

        keys.Restart();
        using (var missedTheDelete = new MemcachedClient(new MemcachedClientOptions { Servers = { keys.Endpoint } }))
        {
            Assert.Equal(MemcachedStoreResult.Stored, await missedTheDelete.SetAsync(key, entry)); // back with the old value
        }

        string probe = reader.KeyOn(keys.Endpoint, "probe");
        await MemcachedServerFixture.SetUntilStoredAsync(reader.Client(0), probe, "x", "the reader using the key's server again");

        Assert.Equal("v1", await reader[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v1", await reader[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal(2, row.Reads);
    }
}
