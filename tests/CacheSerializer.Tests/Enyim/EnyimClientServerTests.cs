using System.Net;
using CacheSerializer.Enyim;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using MemcachedClientOptions = CacheSerializer.Memcached.MemcachedClientOptions;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>What <see cref="IMemcachedClient"/> does to whole servers (flush, statistics), and when one fails (the
/// <c>NodeFailed</c> event, reads and writes of a down server), each test on servers of its own.</summary>
public sealed class EnyimClientServerTests
{
    [Fact]
    public async Task FlushAll_SyncAndAsync_EveryItemOfEveryServerGone()
    {
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using CoreClient core = Client(first, second);
        using var client = new EnyimClient(core);
        string[] keys = [.. Enumerable.Range(0, 20).Select(i => $"flush:{i}")];

        Store(client, keys);
        client.FlushAll();
        Assert.Empty(client.Get<string>(keys));
        Store(client, keys);
        await client.FlushAllAsync();
        Assert.Empty(client.Get<string>(keys));
        Assert.Equal(2, keys.Select(core.GetServerForKey).Distinct().Count());
    }

    [Fact]
    public void Stats_TwoServers_EachServersFiguresByEndPointAndTheirSum()
    {
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using CoreClient core = Client(first, second);
        using var client = new EnyimClient(core);
        string[] keys = [.. Enumerable.Range(0, 20).Select(i => $"stats:{i}")];
        Store(client, keys);
        var firstEndPoint = new IPEndPoint(IPAddress.Loopback, first.Port);
        var secondEndPoint = new IPEndPoint(IPAddress.Loopback, second.Port);
        int onFirst = keys.Count(key => core.GetServerForKey(key) == first.Endpoint);

        ServerStats stats = client.Stats();

        Assert.Equal(onFirst, stats.GetValue(firstEndPoint, StatItem.ItemCount));
        Assert.Equal(20 - onFirst, stats.GetValue(secondEndPoint, StatItem.ItemCount));
        Assert.Equal(20, stats.GetValue(ServerStats.All, StatItem.ItemCount));
        Assert.Equal(new Version(1, 6, 18), stats.GetVersion(firstEndPoint));
        Assert.Equal(onFirst.ToString(System.Globalization.CultureInfo.InvariantCulture), stats.GetRaw(firstEndPoint, "curr_items"));
        Assert.Null(stats.GetRaw(new IPEndPoint(IPAddress.Loopback, 1), "curr_items"));
        Assert.Equal(new HashSet<EndPoint> { firstEndPoint, secondEndPoint }, stats.GetRaw("pid").Select(p => p.Key).ToHashSet());
        // ServerStats.cs (e383c4c): uptime, time and version "cannot be summarized".
        Assert.Throws<ArgumentException>(() => stats.GetValue(ServerStats.All, StatItem.Uptime));
    }

    [Fact]
    public void Stats_SettingsGroup_TheServersSettings()
    {
        using var server = MemcachedServer.Start();
        using CoreClient core = Client(server);
        using var client = new EnyimClient(core);

        ServerStats settings = client.Stats("settings");

        // MemcachedServer starts memcached with -c 4096 -t 2.
        Assert.Equal("4096", settings.GetRaw(new IPEndPoint(IPAddress.Loopback, server.Port), "maxconns"));
        Assert.Equal("2", settings.GetRaw(new IPEndPoint(IPAddress.Loopback, server.Port), "num_threads"));
        Assert.Throws<ArgumentException>(() => client.Stats("detail dump"));
    }

    [Fact]
    public async Task NodeFailed_ServerKilled_RaisedWithItsEndPointNotAlive()
    {
        using var server = MemcachedServer.Start();
        using CoreClient core = Client(server);
        using var client = new EnyimClient(core);
        var failed = new TaskCompletionSource<IMemcachedNode>(TaskCreationOptions.RunContinuationsAsynchronously);
        client.NodeFailed += node => failed.TrySetResult(node);
        Assert.True(client.Set("before", "v", 0));

        server.Kill();
        // A read sent on a pooled connection before its reader saw the close fails as a broken connection, which only
        // drops that connection (docs/client.md); the read after it reconnects, is refused, and marks the server down.
        // Which read that is depends on when each connection's reader saw the close, so read until the event comes.
        using var stuck = new CancellationTokenSource(Bound.NotStuck);
        while (!failed.Task.IsCompleted && !stuck.IsCancellationRequested)
        {
            Assert.Null(client.Get<string>("after"));
            await Task.WhenAny(failed.Task, Task.Delay(10));
        }

        IMemcachedNode node = await failed.Task.WaitAsync(Bound.NotStuck);

        Assert.Equal(new IPEndPoint(IPAddress.Loopback, server.Port), node.EndPoint);
        Assert.False(node.IsAlive);
    }

    [Fact]
    public async Task Calls_ServerDown_MissFalseAndZeroAsUnderSuppressException()
    {
        // EnyimMemcachedCore's default SuppressException: a failed read is a miss (default), a store false, a counter 0.
        var server = MemcachedServer.Start();
        string endpoint = server.Endpoint;
        server.Dispose();
        using var core = new CoreClient(new MemcachedClientOptions { Servers = { endpoint }, ConnectTimeout = TimeSpan.FromMilliseconds(500) });
        using var client = new EnyimClient(core);

        Assert.Null(client.Get<string>("k"));
        Assert.False((await client.GetAsync<string>("k")).Success);
        Assert.False(client.Set("k", "v", 0));
        Assert.False(await client.AddAsync("k", "v", 0));
        Assert.Equal(0ul, client.Increment("k", 1, 1));
        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = 0 }, client.Cas(StoreMode.Set, "k", "v"));
        Assert.False(client.Remove("k"));
    }

    [Fact]
    public void Dispose_Front_LeavesTheCoreClientWorking()
    {
        using var server = MemcachedServer.Start();
        using CoreClient core = Client(server);
        var client = new EnyimClient(core);
        client.Dispose();

        using var again = new EnyimClient(core);
        Assert.True(again.Set("k", "v", 0));
        Assert.Equal("v", again.Get<string>("k"));
    }

    private static CoreClient Client(params MemcachedServer[] servers)
    {
        var options = new MemcachedClientOptions { OperationTimeout = TimeSpan.FromSeconds(5) };
        foreach (MemcachedServer server in servers)
        {
            options.Servers.Add(server.Endpoint);
        }

        return new CoreClient(options);
    }

    private static void Store(EnyimClient client, string[] keys)
    {
        foreach (string key in keys)
        {
            Assert.True(client.Set(key, key, 0));
        }
    }
}
