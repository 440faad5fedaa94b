using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Changes memcached did not take (docs/hybrid.md, "Failures"): a removal made while memcached is frozen past
/// the operation timeout fails, while memcached keeps the old value; it is made again once memcached answers, so no
/// server reads the old value from L2 after that (before, it stayed there until it expired).</summary>
public sealed class MemcachedHybridCachePendingChangesTests
{
    private static HybridFarm Farm(MemcachedServer server) => new(server, 2, client: o =>
    {
        o.OperationTimeout = TimeSpan.FromMilliseconds(400);
        o.ServerDownInterval = TimeSpan.FromMilliseconds(200);
    });

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Fact]
    public async Task RemoveAsync_WhileMemcachedIsFrozen_MadeAgainWhenItAnswersAndNoServerReadsTheOldValue()
    {
        using var server = MemcachedServer.Start();
        using HybridFarm farm = Farm(server);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-pending-remove");
        int version = 0;
        ValueTask<string> Database(CancellationToken _) => ValueTask.FromResult($"v{Volatile.Read(ref version)}");
        Assert.Equal("v0", await farm[0].GetOrCreateAsync(key, Database));
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, Database));

        await FrozenAsync(server, async () =>
        {
            Volatile.Write(ref version, 1);
            await farm[0].RemoveAsync(key); // the delete times out: memcached keeps v0
            Assert.Equal(1, farm.Internal(0).Pending.Count);
        });

        await UntilTakenAsync(farm);
        Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, Database));
        Assert.Equal("v1", await farm[0].GetOrCreateAsync(key, Database));
    }

    [Fact]
    public async Task RemoveByTagAsync_WhileMemcachedIsFrozen_LoggedWhenItAnswersAndTheOtherServerRecreates()
    {
        using var server = MemcachedServer.Start();
        using HybridFarm farm = Farm(server);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-pending-tag");
        string tag = Key("tag");
        int version = 0;
        ValueTask<string> Database(CancellationToken _) => ValueTask.FromResult($"v{Volatile.Read(ref version)}");
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, Database, tags: [tag]));

        await FrozenAsync(server, async () =>
        {
            Volatile.Write(ref version, 1);
            await farm[0].RemoveByTagAsync(tag); // the log item cannot be written
            Assert.Equal(1, farm.Internal(0).Pending.Count);
        });

        await UntilTakenAsync(farm);
        Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, Database, tags: [tag]));
    }

    [Fact]
    public async Task SetAsync_WhileMemcachedIsFrozen_TheOldValueIsRemovedWhenItAnswers()
    {
        using var server = MemcachedServer.Start();
        using HybridFarm farm = Farm(server);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-pending-set");
        int version = 0;
        ValueTask<string> Database(CancellationToken _) => ValueTask.FromResult($"v{Volatile.Read(ref version)}");
        Assert.Equal("v0", await farm[1].GetOrCreateAsync(key, Database));

        await FrozenAsync(server, async () =>
        {
            Volatile.Write(ref version, 1);
            await farm[0].SetAsync(key, "v1"); // the store times out: memcached keeps v0
            Assert.Equal(1, farm.Internal(0).Pending.Count);
        });

        await UntilTakenAsync(farm);
        Assert.Equal("v1", await farm[1].GetOrCreateAsync(key, Database));
    }

    /// <summary>Runs <paramref name="during"/> with memcached frozen, then lets it run again.</summary>
    private static async Task FrozenAsync(MemcachedServer server, Func<Task> during)
    {
        server.Pause();
        try
        {
            await during().WaitAsync(Bound.NotStuck);
        }
        finally
        {
            server.Resume();
        }
    }

    /// <summary>Waits until memcached took every pending change and the other server's poller read the log since.</summary>
    private static async Task UntilTakenAsync(HybridFarm farm)
    {
        await Poll.UntilAsync(() => farm.Internal(0).Pending.IsEmpty, "the pending change made again");

        // A poll of the other server that started after the change was logged (two more complete polls) applied it.
        int polls = farm.Internal(1).Log.CompletePolls;
        await Poll.UntilAsync(() => !farm.Internal(1).Log.InOutage && farm.Internal(1).Log.CompletePolls >= polls + 2, "the other server's poller reading the log again");
    }
}
