using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>A lease read (<c>mg &lt;key&gt; N...</c>) that memcached answers with a win its caller never reads: the
/// caller cancelled, or the client closed the connection (a timeout of a frozen memcached). memcached still runs the
/// read once it runs again, creates the placeholder (or hands out the stale entry's win) and sends <c>W</c> to nobody;
/// until the win is handed back, every caller of the key in the farm waits for a factory no one runs, up to its
/// <c>LockTimeout</c> (docs/client.md, "GetOrCreateAsync", "Failures"). Each case runs on a memcached of its own, frozen
/// with SIGSTOP, and a second client stands for another web server.</summary>
public sealed class MemcachedClientLostWinTests
{
    /// <summary>Long enough that a caller waiting for a lost win would outlive <see cref="NoStall"/>.</summary>
    private static readonly GetOrCreateOptions Lease = new() { LockTimeout = TimeSpan.FromMinutes(1) };

    /// <summary>How long the other web server's call may take: its factory, plus the recovery's repair and its own polls;
    /// a lost win would hold it for <see cref="Lease"/>'s minute.</summary>
    private static readonly TimeSpan NoStall = TimeSpan.FromSeconds(10);

    private static MemcachedClient Client(MemcachedServer server, TimeSpan operationTimeout) => new(new MemcachedClientOptions
    {
        Servers = { server.Endpoint },
        ConnectTimeout = TimeSpan.FromSeconds(1),
        OperationTimeout = operationTimeout,
        ServerDownInterval = TimeSpan.FromMilliseconds(200),
    });

    [Fact]
    public async Task GetOrCreateAsync_MissReadAbandonedByATimeoutWhileFrozen_AnotherServerWinsAtOnceAfterRecovery()
    {
        using var server = MemcachedServer.Start();
        await using MemcachedClient first = Client(server, TimeSpan.FromMilliseconds(400));
        await using MemcachedClient second = Client(server, TimeSpan.FromSeconds(2));
        string key = MemcachedServerFixture.UniqueKey("frozen-miss");
        Assert.Equal(MemcachedStoreResult.Stored, await first.SetAsync(MemcachedServerFixture.UniqueKey("warm"), "v"));

        await TimeOutLeaseReadWhileFrozenAsync(server, first, key);

        // memcached ran the abandoned read when it woke: it created the placeholder and sent its win to a closed connection.
        await UntilBackAsync(first);
        Assert.Equal(("after the freeze", 1), await LoadAsync(second, key, "after the freeze"));
        Assert.Equal("after the freeze", (await second.GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task GetOrCreateAsync_StaleReadAbandonedByATimeoutWhileFrozen_AnotherServerRecreatesItAtOnceAfterRecovery()
    {
        using var server = MemcachedServer.Start();
        await using MemcachedClient first = Client(server, TimeSpan.FromMilliseconds(400));
        await using MemcachedClient second = Client(server, TimeSpan.FromSeconds(2));
        string key = MemcachedServerFixture.UniqueKey("frozen-stale");
        Assert.Equal("old", await first.GetOrCreateAsync(key, _ => Task.FromResult("old"), Lease));
        Assert.True(await first.InvalidateAsync(key)); // marked stale: the next lease read wins it

        await TimeOutLeaseReadWhileFrozenAsync(server, first, key);

        await UntilBackAsync(first);
        Assert.Equal(("new", 1), await LoadAsync(second, key, "new"));
        GetReply stored = await second.Engine.Reads.GetRawAsync(key, CancellationToken.None);
        Assert.Equal((true, false), (stored.Hit, stored.Stale));
    }

    [Fact]
    public async Task GetOrCreateAsync_CallerCancelsWhileItsLeaseReadWaits_TheWinIsHandedBackWhenTheReplyArrives()
    {
        using var server = MemcachedServer.Start();
        await using MemcachedClient first = Client(server, TimeSpan.FromSeconds(20)); // no timeout: the reply does arrive
        await using MemcachedClient second = Client(server, TimeSpan.FromSeconds(20));
        string key = MemcachedServerFixture.UniqueKey("cancelled");
        Assert.Equal(MemcachedStoreResult.Stored, await first.SetAsync(MemcachedServerFixture.UniqueKey("warm"), "v"));
        Assert.Equal(MemcachedStoreResult.Stored, await second.SetAsync(MemcachedServerFixture.UniqueKey("warm"), "v"));
        server.Pause();
        try
        {
            using var impatient = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first.GetOrCreateAsync(key, _ => Task.FromResult("never"), Lease, impatient.Token));
            await Poll.UntilAsync(() => first.Engine.Leases.FlightCount == 0, "the shared call cancelled with its only caller");
        }
        finally
        {
            server.Resume();
        }

        // The first client's connection reads the winning reply of the cancelled read; the second asks at once.
        Assert.Equal(("from the second server", 1), await LoadAsync(second, key, "from the second server"));
    }

    /// <summary>Freezes memcached and makes <paramref name="client"/>'s lease read of <paramref name="key"/> time out:
    /// written, unanswered, its connection closed and the server marked down; the call itself runs its factory without
    /// storing (the default failure policy) and returns that value.</summary>
    private static async Task TimeOutLeaseReadWhileFrozenAsync(MemcachedServer server, MemcachedClient client, string key)
    {
        server.Pause();
        try
        {
            string during = await client.GetOrCreateAsync(key, _ => Task.FromResult("during the freeze"), Lease).WaitAsync(Bound.NotStuck);
            Assert.Equal("during the freeze", during);
        }
        finally
        {
            server.Resume();
        }
    }

    /// <summary>The other web server's call, which must not wait for a lost win: the value it returns and how many
    /// times its factory (which makes <paramref name="made"/>) ran.</summary>
    private static async Task<(string Value, int Calls)> LoadAsync(MemcachedClient client, string key, string made)
    {
        int calls = 0;
        string value = await client.GetOrCreateAsync(key, _ =>
        {
            Interlocked.Increment(ref calls);
            return Task.FromResult(made);
        }, Lease).WaitAsync(NoStall);
        return (value, calls);
    }

    /// <summary>Waits until <paramref name="client"/> stores on the server again (its probe marked it up).</summary>
    private static Task UntilBackAsync(MemcachedClient client) => Poll.UntilAsync(
        async () => await client.SetAsync(MemcachedServerFixture.UniqueKey("probe"), "v") == MemcachedStoreResult.Stored,
        "the client storing again after the freeze");
}
