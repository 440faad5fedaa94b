using CacheSerializer.Enyim;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using MemcachedClientOptions = CacheSerializer.Memcached.MemcachedClientOptions;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>The compatibility client's synchronous methods complete with every thread-pool thread blocked: each runs its
/// asynchronous path on the calling thread (SyncCall), never waiting for a pool thread. Runs alone (the starved-pool
/// collection): it blocks every pool thread of the process.</summary>
[Collection(MemcachedClientStarvedPoolTests.Name)]
public sealed class EnyimClientStarvedPoolTests
{
    private const int Rounds = 100;

    [Fact]
    public void SynchronousMethods_EveryPoolThreadBlocked_CompleteWithTheirValues()
    {
        using var first = MemcachedServer.Start();
        using var second = MemcachedServer.Start();
        using var core = new CoreClient(new MemcachedClientOptions { Servers = { first.Endpoint, second.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        using var client = new EnyimClient(core);
        Assert.True(client.Set("warm", 1, 0)); // both connections open before the pool is blocked
        Assert.True(client.Set("warm-2", 1, 0));

        int fewestWaiting = int.MaxValue;
        var failures = new List<string>();
        using (StarvedPool.Block())
        {
            StarvedPool.RunOnOwnThread(() =>
            {
                for (int i = 0; i < Rounds; i++)
                {
                    string key = $"starved:{i}";
                    Check(failures, i, "Set", client.Set(key, $"v{i}", 60));
                    Check(failures, i, "Get", client.Get<string>(key) == $"v{i}");
                    Check(failures, i, "TryGet", client.TryGet(key, out string? read) && read == $"v{i}");
                    CasResult<string> cas = client.GetWithCas<string>(key);
                    Check(failures, i, "Cas", client.Cas(StoreMode.Set, key, $"w{i}", cas.Cas).Result);
                    Check(failures, i, "Add", !client.Add(key, "x", 60));
                    Check(failures, i, "Replace", client.Replace(key, $"r{i}", TimeSpan.FromSeconds(60)));
                    Check(failures, i, "Store", client.Store(StoreMode.Set, $"{key}:bytes", new byte[] { 1 }));
                    Check(failures, i, "Append", client.Append($"{key}:bytes", new ArraySegment<byte>([2])));
                    Check(failures, i, "Increment", client.Increment($"{key}:n", 10, 1) == 10 && client.Increment($"{key}:n", 10, 1) == 11);
                    Check(failures, i, "Decrement", client.Decrement($"{key}:n", 10, 5) == 6);
                    Check(failures, i, "GetMany", client.Get<string>([key, "warm-missing"]).Count == 1);
                    Check(failures, i, "GetWithCas(keys)", client.GetWithCas([key, $"{key}:bytes"]).Count == 2);
                    Check(failures, i, "Remove", client.Remove(key));
                    fewestWaiting = Math.Min(fewestWaiting, (int)ThreadPool.PendingWorkItemCount);
                }

                Check(failures, Rounds, "Stats", client.Stats().GetValue(ServerStats.All, StatItem.ItemCount) >= 2 * Rounds);
                client.FlushAll();
            });
        }

        // Measured from a starved pool, not assumed: work waited for a pool thread through every round.
        Assert.True(fewestWaiting > 0, $"at times no work item waited for a pool thread ({fewestWaiting}): not starved");
        Assert.Empty(failures);
        Assert.Null(client.Get<string>("warm"));
    }

    [Fact]
    public async Task SynchronousMethods_64CallersHoldingPoolThreads_NoCallWaitsForThePool()
    {
        // 64 callers that are themselves pool work items, the pool at its default minimum: what a synchronous web
        // application does. A reply sometimes arrives between a call's IsCompleted check and its registration; the
        // hand-over must still reach the caller itself. It once went to the pool, queued on the caller's own (blocked)
        // thread: that call then waited until another caller finished its loop (seconds; the benchmark saw 9.7 s).
        using var server = MemcachedServer.Start();
        using var core = new CoreClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        using var client = new EnyimClient(core);
        Assert.True(client.Set("warm", 1, 0));
        const int Callers = 64;

        TimeSpan[] slowest = await Task.WhenAll(Enumerable.Range(0, Callers).Select(c => Task.Run(() =>
        {
            TimeSpan worst = TimeSpan.Zero;
            for (int i = 0; i < Rounds * 5; i++)
            {
                long began = System.Diagnostics.Stopwatch.GetTimestamp();
                Assert.True(client.Set($"many:{c}", i, 0));
                Assert.Equal(i, client.Get<int>($"many:{c}"));
                worst = TimeSpan.FromTicks(Math.Max(worst.Ticks, System.Diagnostics.Stopwatch.GetElapsedTime(began).Ticks));
            }

            return worst;
        }))).WaitAsync(Bound.Burst);

        Assert.True(slowest.Max() < TimeSpan.FromSeconds(2), $"a call took {slowest.Max().TotalMilliseconds:F0} ms: it waited for the pool");
    }

    private static void Check(List<string> failures, int round, string call, bool passed)
    {
        if (!passed)
        {
            failures.Add($"{call} in round {round}");
        }
    }
}
