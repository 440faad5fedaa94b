using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Hybrid;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Changes memcached did not take (docs/hybrid.md, "Failures"): a removal or set whose request never reached
/// the key's memcached node, which keeps the old value; it is made again once the node answers, so no server reads the
/// old value from L2 after that (before, it stayed there until it expired).</summary>
/// <remarks>The removal and the set are made while the key's node is cut off by a <see cref="PartitionRelay"/>, not
/// while it is frozen: a frozen memcached runs the delete or store sent to it once it resumes, so the change reaches it
/// without being made again, and such a test passes without the retry it names.</remarks>
public sealed class MemcachedHybridCachePendingChangesTests
{
    [Fact]
    public async Task RemoveAsync_KeysNodeCutOff_MadeAgainWhenItAnswersAndNoServerReadsTheOldValue()
    {
        using var run = new PartitionedRun("hybrid-pending-remove");
        Assert.Equal("v0", await run.ReadAsync(0));
        Assert.Equal("v0", await run.ReadAsync(1));

        await run.ChangeWhileCutOffAsync(cache => cache.RemoveAsync(run.Key));

        Assert.Equal("v1", await run.ReadAsync(1));
        Assert.Equal("v1", await run.ReadAsync(0));
    }

    [Fact]
    public async Task SetAsync_KeysNodeCutOff_TheOldValueIsRemovedWhenItAnswers()
    {
        using var run = new PartitionedRun("hybrid-pending-set");
        Assert.Equal("v0", await run.ReadAsync(0));
        Assert.Equal("v0", await run.ReadAsync(1));

        await run.ChangeWhileCutOffAsync(cache => cache.SetAsync(run.Key, "v1"));

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

    /// <summary>Two web servers over a memcached of their own (operation timeout 400 ms), one tagged key and its row's
    /// version. A removal by tag needs nothing from memcached that a frozen server runs later: its counter increment, the
    /// one request sent before the timeout, leaves a log slot that is never written and a tag never recorded, so without
    /// the retry the other server reads the tagged entry from L2 again.</summary>
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

    /// <summary>Two web servers over two memcached nodes: the invalidation log's (<c>hc:seq</c> and the log slots this
    /// run writes) and, behind a <see cref="PartitionRelay"/>, the key's. One untagged key and its row's version.</summary>
    private sealed class PartitionedRun : IDisposable
    {
        /// <summary>Log slots after the counter's start that must be on the log's node: the change's and its retries'.</summary>
        private const int SlotsOnLogNode = 4;

        private readonly MemcachedServer _logNode = MemcachedServer.Start();
        private readonly MemcachedServer _keyNode = MemcachedServer.Start();
        private readonly MemcachedClient _keyNodeDirect;
        private readonly PartitionRelay _relay;
        private readonly string[] _endpoints;
        private readonly HybridFarm _farm;
        private int _version;

        public PartitionedRun(string name)
        {
            _keyNodeDirect = new MemcachedClient(new MemcachedClientOptions { Servers = { _keyNode.Endpoint } });

            // Ketama places hc:seq by the nodes' names: relays on other ports until it is on the log's node. The ring is
            // the web servers' own (the same options), asked where it puts a key.
            MemcachedClient ring;
            for (int attempt = 0; ; attempt++)
            {
                Assert.True(attempt < 100, "a relay port that puts hc:seq on the log's node");
                _relay = new PartitionRelay(_keyNode.Port);
                _endpoints = [_logNode.Endpoint, _relay.Endpoint];
                ring = new MemcachedClient(new MemcachedClientOptions { Servers = { _endpoints[0], _endpoints[1] } });
                if (OnLogNode(ring, InvalidationLog.SequenceKey))
                {
                    break;
                }

                ring.Dispose();
                _relay.Dispose();
            }

            using (ring)
            {
                Key = Enumerable.Range(0, 1000).Select(_ => MemcachedServerFixture.UniqueKey(name)).First(k => !OnLogNode(ring, k));

                // The counter starts (as the log would: microseconds since the epoch) where the next slots are on the log's
                // node, so the change's log item reaches the other server while the key's node is cut off.
                ulong start = (ulong)((DateTime.UtcNow - DateTime.UnixEpoch).Ticks / 10);
                while (!Enumerable.Range(1, SlotsOnLogNode).All(i => OnLogNode(ring, "hc:log:" + ((start + (ulong)i) % InvalidationLog.RingSize))))
                {
                    start++;
                }

                Assert.Equal(start, ring.Engine.ArithmeticAsync(InvalidationLog.SequenceKey, false, 0, start, null, CancellationToken.None).GetAwaiter().GetResult());
            }

            _farm = new HybridFarm(_endpoints, 2, client: o =>
            {
                o.OperationTimeout = TimeSpan.FromMilliseconds(400);
                o.ServerDownInterval = TimeSpan.FromMilliseconds(200);
            });
            _farm.UntilPolledAsync().GetAwaiter().GetResult();
        }

        public string Key { get; }

        /// <summary>The key on web server <paramref name="server"/>, its factory reading the row's current version.</summary>
        public ValueTask<string> ReadAsync(int server) =>
            _farm[server].GetOrCreateAsync(Key, _ => ValueTask.FromResult($"v{Volatile.Read(ref _version)}"));

        /// <summary>Whether <paramref name="ring"/> places <paramref name="key"/> on the log's node.</summary>
        private bool OnLogNode(MemcachedClient ring, string key) => ring.Engine.Locate(ring.Engine.Key(key)).Endpoint.Name == _logNode.Endpoint;

        /// <summary>Cuts the key's node off, updates the row and makes <paramref name="change"/> on web server 0, checks
        /// that the node still holds the old value (the change never reached it) and that web server 0 keeps the change
        /// pending, ends the partition, and waits until the change was made again and both servers read the log since.</summary>
        public async Task ChangeWhileCutOffAsync(Func<HybridCache, ValueTask> change)
        {
            GetReply before = await _keyNodeDirect.Engine.Reads.GetRawAsync(Key, CancellationToken.None);
            Assert.True(before.Hit, "the key's node holds the old entry");
            byte[] old = before.Item.Data.ToArray();

            _relay.Cut();
            try
            {
                Volatile.Write(ref _version, 1);
                await change(_farm[0]).AsTask().WaitAsync(Bound.NotStuck);
                Assert.Equal(1, _farm.Internal(0).Pending.Count);
                GetReply during = await _keyNodeDirect.Engine.Reads.GetRawAsync(Key, CancellationToken.None);
                Assert.True(during.Hit, "the key's node still holds the old entry: the change never reached it");
                Assert.Equal(old, during.Item.Data.ToArray());
            }
            finally
            {
                _relay.Mend();
            }

            await Poll.UntilAsync(() => _farm.Internal(0).Pending.IsEmpty, "the pending change made again");
            Assert.False((await _keyNodeDirect.Engine.Reads.GetRawAsync(Key, CancellationToken.None)).Hit, "the old entry deleted by the retry");
            await _farm.UntilPolledAgainAsync();
        }

        public void Dispose()
        {
            _farm.Dispose();
            _keyNodeDirect.Dispose();
            _relay.Dispose();
            _keyNode.Dispose();
            _logNode.Dispose();
        }
    }
}
