using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Hybrid;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>While a key's own memcached server is down, its entry is leased and filled under its gutter key on another
/// server, so that the farm makes one factory call per change (issue 44, item 2; docs/hybrid.md, "The gutter"); every
/// removal deletes the gutter copy too, and one it could not delete is deleted again and never read meanwhile.</summary>
public sealed class MemcachedHybridCacheGutterTests
{
    [Theory]
    [InlineData(HybridCacheCoherence.Bounded)]
    [InlineData(HybridCacheCoherence.Strict)]
    public async Task GetOrCreateAsync_KeysServerDead_EachChangeFilledOnceForTheFarm(HybridCacheCoherence mode)
    {
        // Before: each web server ran the factory for each change of a key whose server was down (the key pending after
        // a removal its server did not take, or the read failing): 3 calls per change with 3 web servers.
        using var servers = MemcachedServers.Start(3);
        MemcachedServer[] nodes = servers.All;
        // A bound of a second: the gutter is read only while the poller is fresh, which a loaded machine must not make
        // this test's count depend on.
        using var farm = new HybridFarm(nodes, 3, o =>
        {
            o.L1Coherence = mode;
            o.InvalidationBound = TimeSpan.FromSeconds(1);
        }, client: o => o.ServerDownInterval = TimeSpan.FromSeconds(30));
        await farm.UntilPolledAsync();
        MemcachedServer dead = nodes.First(n => n.Endpoint != farm.LogsNode);
        string key = farm.KeyOn(dead.Endpoint, "hybrid-gutter");
        var row = new Row();
        string[] before = [await farm[0].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read), await farm[2].GetOrCreateAsync(key, row.Read)];

        dead.Kill();
        await UntilEveryServerSeesItDownAsync(farm, key);
        row.Update();
        await farm[0].RemoveAsync(key); // its server refuses the delete: K, pending on every server
        string[] firstChange = [await farm[0].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read), await farm[2].GetOrCreateAsync(key, row.Read)];
        int afterFirst = row.Reads;
        row.Update();
        await farm[1].RemoveAsync(key); // deletes the gutter copy too
        string[] secondChange = [await farm[2].GetOrCreateAsync(key, row.Read), await farm[0].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read)];

        Assert.Equal(["v0", "v0", "v0"], before);
        Assert.Equal(["v1", "v1", "v1"], firstChange);
        Assert.Equal(["v2", "v2", "v2"], secondChange);
        Assert.Equal(2, afterFirst); // v0 once, v1 once
        Assert.Equal(3, row.Reads);
    }

    [Fact]
    public async Task GetOrCreateAsync_KeysServerFreezesUnderWaitingReads_TheirTimeoutsFillTheGutterOnce()
    {
        // Before: each web server's read timed out at the frozen server and ran the factory there (3 calls with 3 web
        // servers); now a read whose server failed it, and is down by then, leases on the gutter.
        using var servers = MemcachedServers.Start(3);
        using var farm = new HybridFarm(servers.All, 3, o => o.InvalidationBound = TimeSpan.FromSeconds(1), client: o =>
        {
            o.OperationTimeout = TimeSpan.FromMilliseconds(500);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        await farm.UntilPolledAsync();
        MemcachedServer frozen = servers.All.First(n => n.Endpoint != farm.LogsNode);
        string key = farm.KeyOn(frozen.Endpoint, "hybrid-gutter-timeouts");
        var row = new Row();

        frozen.Pause();
        try
        {
            string[] reads = await Task.WhenAll(Enumerable.Range(0, 3).Select(i => farm[i].GetOrCreateAsync(key, row.Read).AsTask()));

            Assert.Equal(["v0", "v0", "v0"], reads);
            Assert.Equal(1, row.Reads);
        }
        finally
        {
            frozen.Resume();
        }
    }

    [Fact]
    public async Task GetOrCreateAsync_StrictAndTheKeysServerRestartedUnseenByThisClient_CopyNotServedAfterARemovalThatReachedIt()
    {
        // Before: a Strict copy whose key's server this client could not ask was served while the poller was fresh, on the
        // premise that a remover could not reach that server either, and so waited the bound. A remover whose client saw
        // the server come back (or never saw it go) deleted the key and returned at once: this server served "v0" until
        // its poller read the removal (a 5 s bound here, so it had not).
        using var servers = MemcachedServers.Start(4);
        using var farm = new HybridFarm(servers.All, 2, o =>
        {
            o.L1Coherence = HybridCacheCoherence.Strict;
            o.InvalidationBound = TimeSpan.FromSeconds(5);
        }, client: o => o.ServerDownInterval = TimeSpan.FromSeconds(30));
        await farm.UntilPolledAsync();
        string[] copies = [.. farm.Internal(0).Log.Servers.Select(static n => n.Name)];
        MemcachedServer restarted = servers.All.Single(n => !copies.Contains(n.Endpoint)); // no log copy: web server 0 never asks it
        string key = farm.KeyOn(restarted.Endpoint, "hybrid-strict-unseen");
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read));

        restarted.Kill();
        await UntilServerSeesItDownAsync(farm, 1, key);
        restarted.Restart();
        row.Update();
        await farm[0].RemoveAsync(key); // its client reaches the server: deleted there, and returns at once (Strict)

        Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, row.Read));
    }

    [Fact]
    public async Task RemoveAsync_GutterCopysServerCutOff_CopyDeletedAgainWhenItAnswers()
    {
        // A gutter copy a removal could not delete (its server cut off, keeping its items) would be served the next time
        // the key's own server is down; every server keeps it (log item M) until one deleted it.
        using var home = MemcachedServer.Start();
        using var gutterNode = MemcachedServer.Start();
        using var other = MemcachedServer.Start();
        using var relay = new PartitionRelay(gutterNode.Port);
        using var farm = new HybridFarm([home.Endpoint, relay.Endpoint, other.Endpoint], 2, o => o.InvalidationBound = TimeSpan.FromSeconds(1), client: o => o.ServerDownInterval = TimeSpan.FromMilliseconds(200));
        await farm.UntilPolledAsync();
        string key = HybridFarm.UniqueWhere("hybrid-gutter-cut", k => farm.NodeOf(k) == home.Endpoint && farm.NodeOf(GutterOf(farm, k)) == relay.Endpoint, "key on the first server whose gutter is behind the relay");
        using var gutterDirect = new MemcachedClient(new MemcachedClientOptions { Servers = { gutterNode.Endpoint } });
        var row = new Row();
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read));

        home.Kill();
        await UntilEveryServerSeesItDownAsync(farm, key);
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, row.Read)); // filled in the gutter
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, row.Read)); // read from it
        Assert.True((await gutterDirect.GetAsync<byte[]>(GutterOf(farm, key))).Found);
        home.Restart();
        string probe = farm.KeyOn(home.Endpoint, "probe");
        await MemcachedServerFixture.SetUntilStoredAsync(farm.Client(0), probe, "x", "web server 0 using the key's server again");
        await MemcachedServerFixture.SetUntilStoredAsync(farm.Client(1), probe, "x", "web server 1 using the key's server again");
        await farm.UntilPolledAgainAsync(); // the restart's jump dropped every tag; * is read again (its record may be on the server cut next)

        relay.Cut();
        row.Update();
        await farm[0].RemoveAsync(key); // the key's server takes it; the gutter copy's does not: M
        string[] whileCut = [await farm[0].GetOrCreateAsync(key, row.Read), await farm[1].GetOrCreateAsync(key, row.Read)];
        Assert.True((await gutterDirect.GetAsync<byte[]>(GutterOf(farm, key))).Found); // v0's copy, still there

        relay.Mend();
        await Poll.UntilAsync(async () => !(await gutterDirect.GetAsync<byte[]>(GutterOf(farm, key))).Found, "the gutter copy deleted again");

        Assert.Equal(["v1", "v1"], whileCut);
        Assert.Equal(3, row.Reads);
    }

    private static string GutterOf(HybridFarm farm, string key) => Gutter.KeyOf(farm.Client(0).Engine, key)!;

    /// <summary>Each web server's client marks the key's server down (a read of it fails), so that its reads go to the gutter.</summary>
    private static async Task UntilEveryServerSeesItDownAsync(HybridFarm farm, string key)
    {
        for (int i = 0; i < farm.Count; i++)
        {
            await UntilServerSeesItDownAsync(farm, i, key);
        }
    }

    private static Task UntilServerSeesItDownAsync(HybridFarm farm, int server, string key)
    {
        MemcachedClient client = farm.Client(server);
        return Poll.UntilAsync(async () =>
        {
            await client.GetAsync<string>(key);
            return client.Engine.Locate(client.Engine.Key(key)).IsDown;
        }, $"web server {server} marking the key's server down");
    }
}
