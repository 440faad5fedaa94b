using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Changes memcached did not take (docs/hybrid.md, "Failures"): a removal made while memcached is frozen past
/// the operation timeout fails, while memcached keeps the old value; it is made again once memcached answers, so no
/// server reads the old value from L2 after that (before, it stayed there until it expired).</summary>
public sealed class MemcachedHybridCachePendingChangesTests
{
    [Fact]
    public async Task RemoveAsync_WhileMemcachedIsFrozen_MadeAgainWhenItAnswersAndNoServerReadsTheOldValue()
    {
        using var run = new FrozenRun("hybrid-pending-remove");
        Assert.Equal("v0", await run.ReadAsync(0));
        Assert.Equal("v0", await run.ReadAsync(1));

        await run.ChangeWhileFrozenAsync(cache => cache.RemoveAsync(run.Key)); // the delete times out: memcached keeps v0

        Assert.Equal("v1", await run.ReadAsync(1));
        Assert.Equal("v1", await run.ReadAsync(0));
    }

    [Fact]
    public async Task RemoveByTagAsync_WhileMemcachedIsFrozen_LoggedWhenItAnswersAndTheOtherServerRecreates()
    {
        using var run = new FrozenRun("hybrid-pending-tag");
        Assert.Equal("v0", await run.ReadAsync(1));

        await run.ChangeWhileFrozenAsync(cache => cache.RemoveByTagAsync(run.Tag)); // the log item cannot be written

        Assert.Equal("v1", await run.ReadAsync(1));
    }

    [Fact]
    public async Task SetAsync_WhileMemcachedIsFrozen_TheOldValueIsRemovedWhenItAnswers()
    {
        using var run = new FrozenRun("hybrid-pending-set");
        Assert.Equal("v0", await run.ReadAsync(1));

        await run.ChangeWhileFrozenAsync(cache => cache.SetAsync(run.Key, "v1", tags: [run.Tag])); // the store times out: memcached keeps v0

        Assert.Equal("v1", await run.ReadAsync(1));
    }

    /// <summary>Two web servers over a memcached of their own (operation timeout 400 ms), one tagged key and its row's
    /// version.</summary>
    private sealed class FrozenRun : IDisposable
    {
        private readonly MemcachedServer _server = MemcachedServer.Start();
        private readonly HybridFarm _farm;
        private int _version;

        public FrozenRun(string name)
        {
            _farm = new HybridFarm(_server, 2, client: o =>
            {
                o.OperationTimeout = TimeSpan.FromMilliseconds(400);
                o.ServerDownInterval = TimeSpan.FromMilliseconds(200);
            });
            Key = MemcachedServerFixture.UniqueKey(name);
            Tag = MemcachedServerFixture.UniqueKey("tag");
            _farm.UntilPolledAsync().GetAwaiter().GetResult();
        }

        public string Key { get; }

        public string Tag { get; }

        /// <summary>The key on web server <paramref name="server"/>, its factory reading the row's current version.</summary>
        public ValueTask<string> ReadAsync(int server) =>
            _farm[server].GetOrCreateAsync(Key, _ => ValueTask.FromResult($"v{Volatile.Read(ref _version)}"), tags: [Tag]);

        /// <summary>Freezes memcached, updates the row and makes <paramref name="change"/> on web server 0 (which keeps it
        /// pending), lets memcached run again, and waits until the change was made again and both servers read the log since.</summary>
        public async Task ChangeWhileFrozenAsync(Func<HybridCache, ValueTask> change)
        {
            _server.Pause();
            try
            {
                Volatile.Write(ref _version, 1);
                await change(_farm[0]).AsTask().WaitAsync(Bound.NotStuck);
                Assert.Equal(1, _farm.Internal(0).Pending.Count);
            }
            finally
            {
                _server.Resume();
            }

            await Poll.UntilAsync(() => _farm.Internal(0).Pending.IsEmpty, "the pending change made again");
            await _farm.UntilPolledAgainAsync(); // the other server applied the change's log item
        }

        public void Dispose()
        {
            _farm.Dispose();
            _server.Dispose();
        }
    }
}
