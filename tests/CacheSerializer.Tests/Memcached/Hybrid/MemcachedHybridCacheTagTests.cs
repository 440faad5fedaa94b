using CacheSerializer.LocalServers;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Tags judged by sequence across a farm (docs/hybrid.md, "Tags"), with a test for each race the issue names:
/// a tag's removal time never refreshed (dotnet/extensions#7411), an entry served while its tag's time is in flight
/// (#7771), and a removal made while the factory runs.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheTagTests(MemcachedServerFixture fixture)
{
    private const int Rounds = 20;

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Fact]
    public async Task RemoveByTagAsync_OneTagOnOneServer_EveryServerRecreatesItsEntriesOnly()
    {
        using var farm = new HybridFarm(fixture.Primary, 3);
        await farm.UntilPolledAsync();
        var table = new Rows();
        string tagged = Key("hybrid-tagged");
        string other = Key("hybrid-other");
        string tag = Key("tag");
        for (int round = 1; round <= Rounds; round++)
        {
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"{tagged}={round - 1}", await farm[i].GetOrCreateAsync(tagged, table.Read(tagged), tags: [tag]));
                Assert.Equal($"{other}=0", await farm[i].GetOrCreateAsync(other, table.Read(other), tags: ["other"]));
            }

            table.Update(tagged);
            await farm[round % farm.Count].RemoveByTagAsync(tag);
            for (int i = 0; i < farm.Count; i++)
            {
                Assert.Equal($"{tagged}={round}", await farm[i].GetOrCreateAsync(tagged, table.Read(tagged), tags: [tag]));
            }
        }

        Assert.Equal(1, table.Reads(other));
    }

    [Fact]
    public async Task SetAsync_OnAServerBeforeItsFirstPollAfterEverythingWasRemoved_EntryServedByTheFarm()
    {
        // An entry's creation sequence is the last one its server's poller saw; before its first poll that was 0, older
        // than the removal of "*" made long before, so every server refused the entry (and recreated it) for good.
        // memcached is frozen while the new server starts, so its SetAsync runs before its first poll can complete.
        using var server = MemcachedServer.Start();
        using var farm = new HybridFarm(server, 1, client: o => o.OperationTimeout = TimeSpan.FromSeconds(10));
        await farm.UntilPolledAsync();
        await farm[0].RemoveByTagAsync("*");
        string key = Key("hybrid-first-moments");
        string tag = Key("tag");
        server.Pause();
        ValueTask set;
        using (var starting = new HybridFarm(server, 1, client: o => o.OperationTimeout = TimeSpan.FromSeconds(10)))
        {
            try
            {
                Assert.Equal(0, starting.Internal(0).Log.CompletePolls);
                set = starting[0].SetAsync(key, "set in the first moments", tags: [tag]);
                await Task.Delay(200);
            }
            finally
            {
                server.Resume();
            }

            await set.AsTask().WaitAsync(Bound.NotStuck);
        }

        int calls = 0;
        string read = await farm[0].GetOrCreateAsync(key, _ => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}"), tags: [tag]);

        Assert.Equal(("set in the first moments", 0), (read, calls));
    }

    [Fact]
    public async Task RemoveByTagAsync_ManyTags_EntriesOfEachRecreatedOthersKept()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        await farm.UntilPolledAsync();
        var table = new Rows();
        string[] keys = [Key("hybrid-x"), Key("hybrid-y"), Key("hybrid-z")];
        string[] tags = [Key("x"), Key("y"), Key("z")];
        for (int k = 0; k < keys.Length; k++)
        {
            Assert.Equal($"{keys[k]}=0", await farm[0].GetOrCreateAsync(keys[k], table.Read(keys[k]), tags: [tags[k], "shared"]));
        }

        table.Update(keys[0]);
        table.Update(keys[1]);
        await farm[1].RemoveByTagAsync([tags[0], tags[1]]);

        for (int i = 0; i < farm.Count; i++)
        {
            Assert.Equal($"{keys[0]}=1", await farm[i].GetOrCreateAsync(keys[0], table.Read(keys[0]), tags: [tags[0], "shared"]));
            Assert.Equal($"{keys[1]}=1", await farm[i].GetOrCreateAsync(keys[1], table.Read(keys[1]), tags: [tags[1], "shared"]));
            Assert.Equal($"{keys[2]}=0", await farm[i].GetOrCreateAsync(keys[2], table.Read(keys[2]), tags: [tags[2], "shared"]));
        }

        Assert.Equal(1, table.Reads(keys[2]));
    }

    [Fact]
    public async Task RemoveByTagAsync_Star_EveryEntryRecreatedTaggedOrNot()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        await farm.UntilPolledAsync();
        var table = new Rows();
        string untagged = Key("hybrid-star-untagged");
        string tagged = Key("hybrid-star-tagged");
        await farm[0].GetOrCreateAsync(untagged, table.Read(untagged));
        await farm[1].GetOrCreateAsync(tagged, table.Read(tagged), tags: ["t"]);

        table.Update(untagged);
        table.Update(tagged);
        await farm[0].RemoveByTagAsync("*");

        for (int i = 0; i < farm.Count; i++)
        {
            Assert.Equal($"{untagged}=1", await farm[i].GetOrCreateAsync(untagged, table.Read(untagged)));
            Assert.Equal($"{tagged}=1", await farm[i].GetOrCreateAsync(tagged, table.Read(tagged), tags: ["t"]));
        }
    }

    /// <summary>dotnet/extensions#7411: a server caches a tag's invalidation time and never refreshes it. Here the
    /// reading server learns every later removal from the log.</summary>
    [Fact]
    public async Task RemoveByTagAsync_RepeatedOnAnotherServer_EachRemovalSeenByTheReader()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        await farm.UntilPolledAsync();
        var table = new Rows();
        string key = Key("hybrid-refresh");
        string tag = Key("refreshed");
        for (int round = 1; round <= Rounds; round++)
        {
            Assert.Equal($"{key}={round - 1}", await farm[1].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
            Assert.Equal($"{key}={round - 1}", await farm[1].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
            table.Update(key);
            await farm[0].RemoveByTagAsync(tag);
            Assert.Equal($"{key}={round}", await farm[1].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
        }
    }

    /// <summary>dotnet/extensions#7771: entries served while the tag's invalidation time is being fetched. Here a server
    /// that has never seen the tag (it started after the removal) reads its sequence before it serves the entry.</summary>
    [Fact]
    public async Task GetOrCreateAsync_TagRemovedBeforeTheServerStarted_TagReadBeforeTheEntryIsServed()
    {
        var table = new Rows();
        string key = Key("hybrid-unknown-tag");
        string tag = Key("unknown");
        using (var first = new HybridFarm(fixture.Primary, 1))
        {
            Assert.Equal($"{key}=0", await first[0].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
            table.Update(key);
            await first[0].RemoveByTagAsync(tag);
        }

        using var late = new HybridFarm(fixture.Primary, 1);
        Assert.Equal($"{key}=1", await late[0].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
        await late.UntilPolledAsync();
        Assert.Equal($"{key}=1", await late[0].GetOrCreateAsync(key, table.Read(key), tags: [tag]));
    }

    /// <summary>A tag removal made while the factory runs is after the entry's creation: the value the factory returns
    /// is the caller's, but no read after the removal returned gets it.</summary>
    [Fact]
    public async Task RemoveByTagAsync_DuringTheFactory_EntryNotServedAfterward()
    {
        using var farm = new HybridFarm(fixture.Primary, 2);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-during");
        string tag = Key("during");
        int version = 1;
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        async ValueTask<string> Slow(CancellationToken token)
        {
            string value = $"v{Volatile.Read(ref version)}";
            started.TrySetResult();
            await release.Task.WaitAsync(token);
            return value;
        }

        ValueTask<string> Database(CancellationToken _) => ValueTask.FromResult($"v{Volatile.Read(ref version)}");
        Task<string> filling = farm[0].GetOrCreateAsync(key, Slow, tags: [tag]).AsTask();
        await started.Task.WaitAsync(Bound.NotStuck);
        Volatile.Write(ref version, 2);
        await farm[1].RemoveByTagAsync(tag);
        release.SetResult();
        Assert.Equal("v1", await filling.WaitAsync(Bound.NotStuck));

        for (int i = 0; i < farm.Count; i++)
        {
            Assert.Equal("v2", await farm[i].GetOrCreateAsync(key, Database, tags: [tag]));
            Assert.Equal("v2", await farm[i].GetOrCreateAsync(key, Database, tags: [tag]));
        }
    }

    /// <summary>A table of rows, each with a version, and how many times the factory read each.</summary>
    private sealed class Rows
    {
        private readonly Dictionary<string, (int Version, int Reads)> _rows = [];

        public Func<CancellationToken, ValueTask<string>> Read(string key) => _ =>
        {
            lock (_rows)
            {
                (int version, int reads) = _rows.GetValueOrDefault(key);
                _rows[key] = (version, reads + 1);
                return ValueTask.FromResult($"{key}={version}");
            }
        };

        public void Update(string key)
        {
            lock (_rows)
            {
                (int version, int reads) = _rows.GetValueOrDefault(key);
                _rows[key] = (version + 1, reads);
            }
        }

        public int Reads(string key)
        {
            lock (_rows)
            {
                return _rows.GetValueOrDefault(key).Reads;
            }
        }
    }
}
