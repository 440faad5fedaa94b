using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The starved-pool burst of issue 19, alone: it moves half a gigabyte through a 2-core machine and changes the
/// thread pool's minimum, so it runs after the parallel tests rather than beside timing-sensitive ones.</summary>
[Collection(Name)]
public sealed class MemcachedClientStarvedPoolTests
{
    /// <summary>The collection's name; it runs with parallelization disabled.</summary>
    public const string Name = "starved pool";

    [Fact]
    public async Task Sets_FiveThousandConcurrent100KB_PoolAtProcessorCount_AllStored()
    {
        // The connections' loops run on threads of their own: a burst that queues thousands of work items on a thread
        // pool held at its minimum (and callers that block pool threads) must not stall the reads and writes.
        using var server = MemcachedServer.Start("-m 1024");
        ThreadPool.GetMinThreads(out int workers, out int io);
        ThreadPool.SetMinThreads(Environment.ProcessorCount, Environment.ProcessorCount);
        try
        {
            // A fresh client (its connections open under the burst) with the default 2 s connect timeout, as the defect
            // showed: the earlier async loops, on the pool, failed this shape with connect timeouts and with "no reply
            // within 2000 ms ... 0 received" while the server had answered. The operation timeout is 10 s because 500 MB
            // queued on a busy 2-core machine can wait longer than 2 s for a pipeline slot, which is back-pressure
            // (QueueFull), not a stall.
            var options = new MemcachedClientOptions { Servers = { server.Endpoint }, OperationTimeout = TimeSpan.FromSeconds(10), OnServerFailure = ServerFailurePolicy.Throw };
            await using var client = new MemcachedClient(options);
            byte[] value = new byte[100 * 1024];
            Random.Shared.NextBytes(value);

            Task<MemcachedStoreResult>[] sets = Enumerable.Range(0, 5000).Select(i => Task.Run(() => client.SetAsync($"burst:{i}", value))).ToArray();
            Task<MemcachedStoreResult>[] blocking = Enumerable.Range(0, Environment.ProcessorCount * 2)
                .Select(i => Task.Run(() => client.SetAsync($"burst-sync:{i}", value).GetAwaiter().GetResult())).ToArray();
            MemcachedStoreResult[] results = await Task.WhenAll(sets.Concat(blocking)).WaitAsync(Bound.Burst);

            Assert.Equal(5000 + blocking.Length, results.Count(r => r == MemcachedStoreResult.Stored));
            Assert.Equal(value, (await client.GetAsync<byte[]>("burst:4999")).Value);
        }
        finally
        {
            ThreadPool.SetMinThreads(workers, io);
        }
    }
}

/// <summary>Runs <see cref="MemcachedClientStarvedPoolTests"/> alone.</summary>
[CollectionDefinition(MemcachedClientStarvedPoolTests.Name, DisableParallelization = true)]
public sealed class StarvedPoolCollection
{
}
