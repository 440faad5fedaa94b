using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Measuring;

/// <summary>The lock-timeout count the hybrid scenario reports: a caller of another client that waits out its
/// LockTimeout for a value won and not yet stored is counted once, and a caller that reads a stored value is not.</summary>
public sealed class LockTimeoutMeterTests
{
    [Fact]
    public async Task Count_CallerWaitsOutTheLockTimeoutOfAWinHeldElsewhere_One()
    {
        using var server = MemcachedServer.Start();
        await using var holder = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        await using var waiter = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        var quick = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMilliseconds(300) };
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var meter = new LockTimeoutMeter();

        Task<string> holding = holder.GetOrCreateAsync("lock-timeout", async _ =>
        {
            started.SetResult();
            await release.Task;
            return "held";
        });
        await started.Task.WaitAsync(TimeSpan.FromSeconds(30));
        long before = meter.Count;
        string waited = await waiter.GetOrCreateAsync("lock-timeout", _ => Task.FromResult("waited"), quick);
        long afterTimeout = meter.Count;
        release.SetResult();
        await holding;
        string read = await waiter.GetOrCreateAsync("lock-timeout", _ => Task.FromResult("not called"), quick);

        Assert.Equal("waited", waited);
        Assert.Equal(1, afterTimeout - before);
        Assert.Equal(afterTimeout, meter.Count);
        Assert.Equal("waited", read); // stored without a token after the timeout; the holder's CAS-bound fill then lost
    }
}
