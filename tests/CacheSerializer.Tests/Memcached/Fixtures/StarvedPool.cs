using System.Diagnostics;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>A thread pool with every thread blocked and work waiting, for the synchronous calls' tests (the
/// starved-pool collection: they block every pool thread of the process).</summary>
public static class StarvedPool
{
    /// <summary>Blocks every pool thread, plus more work waiting for one, until disposed.</summary>
    public static IDisposable Block()
    {
        var release = new ManualResetEventSlim();
        Task[] blockers = Enumerable.Range(0, ThreadPool.ThreadCount + 64).Select(_ => Task.Run(() => release.Wait())).ToArray();
        Assert.True(SpinWait.SpinUntil(() => ThreadPool.PendingWorkItemCount > 0, Bound.NotStuck), "the pool never had work waiting");
        return new Unblock(release, blockers);
    }

    /// <summary>Runs <paramref name="body"/> on a thread of its own (the pool is blocked) and rethrows what it threw.</summary>
    public static void RunOnOwnThread(Action body)
    {
        Exception? error = null;
        var thread = new Thread(() =>
        {
            try
            {
                body();
            }
            catch (Exception ex)
            {
                error = ex;
            }
        })
        { IsBackground = true, Name = "sync caller" };
        var clock = Stopwatch.StartNew();
        thread.Start();
        Assert.True(thread.Join(Bound.Burst), $"the synchronous calls did not finish within {Bound.Burst.TotalSeconds:F0} s with the pool blocked");
        if (error is not null)
        {
            throw new Xunit.Sdk.XunitException($"the synchronous caller failed after {clock.ElapsedMilliseconds} ms: {error}");
        }
    }

    private sealed class Unblock(ManualResetEventSlim release, Task[] blockers) : IDisposable
    {
        public void Dispose()
        {
            release.Set();
            Task.WaitAll(blockers, Bound.Burst);
            release.Dispose();
        }
    }
}
