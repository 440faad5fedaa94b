using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Running;

/// <summary>The check that makes the load test trustworthy: a wrong value read back is seen, a right one is not flagged.</summary>
public sealed class VirtualUserTests : IDisposable
{
    private static readonly ValueMix Mix = ValueMix.CreateDefault(keys: 4, seed: 7);
    private readonly MemcachedServer _server = MemcachedServer.Start("-I 2m");

    [Fact]
    public async Task RunAsync_KeyOverwrittenBehindItsBack_CountsEveryReadAsCorruption()
    {
        await using MemcachedClient client = Client();
        KeyState[] keys = [.. Enumerable.Range(0, Mix.Keys).Select(_ => new KeyState())];
        for (int i = 0; i < Mix.Keys; i++)
        {
            // The user believes stamp 1 was written; the server holds stamp 2 (another writer, a stale node, a mix-up).
            keys[i].Stored(0, 1);
            await Mix.ShapeOf(i).WriteAsync(client, "c:" + i, 0, 2, CancellationToken.None);
        }

        var counters = new PassCounters();
        var user = new VirtualUser(client, Mix, keys, counters, "c:", readRatio: 1, seed: 1);
        await user.RunAsync(() => counters.Operations >= 20, CancellationToken.None);

        Assert.Equal(20, counters.Gets);
        Assert.Equal(20, counters.Hits);
        Assert.Equal(20, counters.Corruptions);
        Assert.Equal(0, counters.Errors);
    }

    [Fact]
    public async Task RunAsync_ValueFromBeforeThePass_CountsAsCorruption()
    {
        await using MemcachedClient client = Client();
        KeyState[] keys = [.. Enumerable.Range(0, Mix.Keys).Select(_ => new KeyState())];
        for (int i = 0; i < Mix.Keys; i++)
        {
            await Mix.ShapeOf(i).WriteAsync(client, "p:" + i, 0, 1, CancellationToken.None);
        }

        var counters = new PassCounters();
        var user = new VirtualUser(client, Mix, keys, counters, "p:", readRatio: 1, seed: 2);
        await user.RunAsync(() => counters.Gets >= 1, CancellationToken.None);

        Assert.Equal(1, counters.Corruptions);
        Assert.Contains("nothing was written under this key in this pass", Assert.Single(counters.CorruptionSamples), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_StoredKeyGoneFromTheServer_CountsTheMissOnAStoredKey()
    {
        await using MemcachedClient client = Client();
        KeyState[] keys = [.. Enumerable.Range(0, Mix.Keys).Select(_ => new KeyState())];
        for (int i = 0; i < Mix.Keys; i++)
        {
            // The user's set was stored; the server lost it (nothing evicts here: a lost write).
            keys[i].Stored(0, 1);
        }

        var counters = new PassCounters();
        var user = new VirtualUser(client, Mix, keys, counters, "l:", readRatio: 1, seed: 3);
        await user.RunAsync(() => counters.Gets >= 1, CancellationToken.None);

        Assert.Equal((1L, 1L, 0L), (counters.Misses, counters.Findings.MissesOnStoredKeys, counters.Corruptions));
        Assert.Contains("a miss, after variant 0 stamped 1 was stored", Assert.Single(counters.Findings.LostWriteSamples), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_MixedReadsAndWrites_NoCorruptionAndEveryMissFollowedBySet()
    {
        await using MemcachedClient client = Client();
        KeyState[] keys = [.. Enumerable.Range(0, Mix.Keys).Select(_ => new KeyState())];
        var counters = new PassCounters();
        VirtualUser[] users = [.. Enumerable.Range(0, 4).Select(u => new VirtualUser(client, Mix, keys, counters, "m:", readRatio: 0.7, seed: (ulong)u))];

        await Task.WhenAll(users.Select(u => u.RunAsync(() => counters.Operations >= 200, CancellationToken.None)));

        Assert.Equal(0, counters.Corruptions);
        Assert.Equal(0, counters.Errors);
        Assert.True(counters.Hits > 0);
        Assert.True(counters.Sets >= counters.Misses);
    }

    public void Dispose() => _server.Dispose();

    private MemcachedClient Client() => new(new MemcachedClientOptions
    {
        Servers = { _server.Endpoint },
        OperationTimeout = TimeSpan.FromSeconds(10),
        Transcoder = ContenderCatalog.Get(ContenderCatalog.CacheSerializer).Transcoder,
    });
}
