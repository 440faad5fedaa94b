using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Hosting;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;

namespace CacheSerializer.Tests.Memcached.Internal.Engine;

/// <summary>Synchronous calls (issue 38, item 7) complete on the calling thread without a thread-pool thread: the
/// reader thread hands the reply's continuation to the waiting caller. Runs alone (the starved-pool collection): the
/// tests block every pool thread of the process.</summary>
[Collection(MemcachedClientStarvedPoolTests.Name)]
public sealed class SyncCallTests
{
    private const int Calls = 500;

    [Fact]
    public void Run_EveryPoolThreadBlocked_SetsAndGetsCompleteOnTheCallersThread()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync("warm", 1))); // the connection is open

        int fewestWaiting = int.MaxValue;
        var results = new List<(MemcachedStoreResult Stored, MemcachedGetResult<string> Read)>();
        using (StarvedPool.Block())
        {
            StarvedPool.RunOnOwnThread(() =>
            {
                for (int i = 0; i < Calls; i++)
                {
                    MemcachedStoreResult stored = SyncCall.Run(() => client.SetAsync($"sync:{i}", $"value {i}"));
                    MemcachedGetResult<string> read = SyncCall.Run(() => client.GetAsync<string>($"sync:{i}"));
                    results.Add((stored, read));
                    fewestWaiting = Math.Min(fewestWaiting, (int)ThreadPool.PendingWorkItemCount);
                }
            });
        }

        // Measured from a starved pool, not assumed: work waited for a pool thread through every call.
        Assert.True(fewestWaiting > 0, $"at times no work item waited for a pool thread ({fewestWaiting}): not starved");
        Assert.Equal(Calls, results.Count);
        for (int i = 0; i < Calls; i++)
        {
            Assert.Equal(MemcachedStoreResult.Stored, results[i].Stored);
            Assert.True(results[i].Read.Found);
            Assert.Equal($"value {i}", results[i].Read.Value);
        }
    }

    [Fact]
    public void Run_ManyKeysAcrossTwoServersWithPoolBlocked_ReturnsEveryValue()
    {
        // A batch awaits one request per server: each reply's continuation comes back to the caller.
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { first.Endpoint, second.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        string[] keys = Enumerable.Range(0, 40).Select(i => $"many:{i}").ToArray();
        foreach (string key in keys)
        {
            Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync(key, key.Length)));
        }

        IReadOnlyDictionary<string, int> values = new Dictionary<string, int>();
        using (StarvedPool.Block())
        {
            StarvedPool.RunOnOwnThread(() => values = SyncCall.Run(() => client.GetManyAsync<int>(keys)));
        }

        Assert.Equal(2, keys.Select(client.GetServerForKey).Distinct().Count());
        Assert.Equal(keys.Order(), values.Keys.Order());
        Assert.All(keys, key => Assert.Equal(key.Length, values[key]));
    }

    [Fact]
    public void DistributedCacheSynchronousMethods_EveryPoolThreadBlocked_CompleteOnTheCallersThread()
    {
        // ASP.NET's session state calls IDistributedCache.Get synchronously when a request touches the session before
        // loading it: those calls complete without a pool thread too.
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        IDistributedCache cache = new MemcachedDistributedCache(client.Engine);
        cache.Set("warm", [1], new DistributedCacheEntryOptions()); // the connection is open
        var sliding = new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(20) };

        var read = new List<byte[]?>();
        using (StarvedPool.Block())
        {
            StarvedPool.RunOnOwnThread(() =>
            {
                for (int i = 0; i < 100; i++)
                {
                    cache.Set($"session:{i}", [(byte)i, 7], sliding);
                    cache.Refresh($"session:{i}");
                    read.Add(cache.Get($"session:{i}"));
                    cache.Remove($"session:{i}");
                    read.Add(cache.Get($"session:{i}"));
                }
            });
        }

        Assert.Equal(200, read.Count);
        for (int i = 0; i < 100; i++)
        {
            Assert.Equal(new byte[] { (byte)i, 7 }, read[2 * i]);
            Assert.Null(read[(2 * i) + 1]);
        }
    }

    [Fact]
    public void Run_ServerDownUnderThrowPolicy_ThrowsMemcachedExceptionUnwrapped()
    {
        var server = MemcachedServer.Start();
        string endpoint = server.Endpoint;
        server.Dispose();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { endpoint }, OnServerFailure = ServerFailurePolicy.Throw, ConnectTimeout = TimeSpan.FromMilliseconds(500) });

        MemcachedException error = Assert.Throws<MemcachedException>(() => SyncCall.Run(() => client.GetAsync<string>("down")));

        Assert.Equal(MemcachedErrorKind.ConnectFailed, error.Kind);
    }

    [Fact]
    public void Run_NestedInAnotherSyncCall_EachReturnsItsOwnResult()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        SyncCall.Run(() => client.SetAsync("outer", "a"));
        SyncCall.Run(() => client.SetAsync("inner", "b"));

        string joined = SyncCall.Run(async () =>
        {
            string? outer = await client.GetValueAsync<string>("outer");
            string? inner = SyncCall.Run(() => client.GetValueAsync<string>("inner"));
            return outer + inner;
        });

        Assert.Equal("ab", joined);
    }
}
