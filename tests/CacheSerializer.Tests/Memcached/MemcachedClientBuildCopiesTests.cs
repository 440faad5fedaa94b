using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// Two builds of an application during a rolling deploy, on one real memcached (docs/client.md, "Rolling deploys"): the
/// old build reads and writes <see cref="OrderBefore"/>, the new one <see cref="OrderAfter"/> (a member added), under the
/// same type alias. Cache-aside as the README shows it: <c>GetAsync</c>, and on a miss the fill with <c>AddAsync</c>;
/// updates with <c>DeleteAsync</c> or <c>SetAsync</c>.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientBuildCopiesTests(MemcachedServerFixture fixture) : IDisposable
{
    private readonly MemcachedClient _old = new(Options(fixture, DeployBuilds.OldBuild()));
    private readonly MemcachedClient _new = new(Options(fixture, DeployBuilds.NewBuild()));

    [Fact]
    public async Task AddAsync_AfterTheOtherBuildsItemWasMissed_BothBuildsHitAndNeitherEvictsTheOther()
    {
        string key = MemcachedServerFixture.UniqueKey("copies");
        Assert.Equal(MemcachedStoreResult.Stored, await _old.SetAsync(key, new OrderBefore { Name = "v1" }));

        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);
        Assert.Equal(MemcachedStoreResult.Stored, await _new.AddAsync(key, new OrderAfter { Name = "v1", Quantity = 1 }));

        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(("v1", 1), Read(await _new.GetAsync<OrderAfter>(key)));
            Assert.Equal("v1", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
        }
    }

    [Fact]
    public async Task AddAsync_NewBuildsItemMissedByTheOldBuild_OldBuildKeepsItsCopyToo()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-back");
        await _new.SetAsync(key, new OrderAfter { Name = "v1", Quantity = 1 });

        Assert.False((await _old.GetAsync<OrderBefore>(key)).Found);
        Assert.Equal(MemcachedStoreResult.Stored, await _old.AddAsync(key, new OrderBefore { Name = "v1" }));

        Assert.Equal("v1", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
        Assert.Equal(("v1", 1), Read(await _new.GetAsync<OrderAfter>(key)));
    }

    [Theory]
    [InlineData("old deletes")]
    [InlineData("new deletes")]
    [InlineData("old overwrites")]
    [InlineData("new overwrites")]
    public async Task GetAsync_AfterAnUpdateByEitherBuild_NeitherReadsAValueStoredBeforeIt(string update)
    {
        string key = MemcachedServerFixture.UniqueKey("copies-update");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);
        await _new.AddAsync(key, new OrderAfter { Name = "v1", Quantity = 1 });

        switch (update)
        {
            case "old deletes" or "new deletes":
                Assert.True(await (update.StartsWith("old", StringComparison.Ordinal) ? _old : _new).DeleteAsync(key));
                break;
            case "old overwrites":
                await _old.SetAsync(key, new OrderBefore { Name = "v2" });
                break;
            default:
                await _new.SetAsync(key, new OrderAfter { Name = "v2", Quantity = 2 });
                break;
        }

        MemcachedGetResult<OrderBefore> old = await _old.GetAsync<OrderBefore>(key);
        MemcachedGetResult<OrderAfter> @new = await _new.GetAsync<OrderAfter>(key);
        Assert.True(!old.Found || old.Value!.Name == "v2", $"the old build read {old.Value?.Name}");
        Assert.True(!@new.Found || @new.Value!.Name == "v2", $"the new build read {@new.Value?.Name}");
        Assert.Equal(update == "old overwrites", old.Found);
        Assert.Equal(update == "new overwrites", @new.Found);
    }

    [Fact]
    public async Task GetManyAsync_OtherBuildsItems_ReadsTheCopiesAndRemembersTheMissesForTheFill()
    {
        string copied = MemcachedServerFixture.UniqueKey("copies-many");
        string missed = MemcachedServerFixture.UniqueKey("copies-many");
        string own = MemcachedServerFixture.UniqueKey("copies-many");
        await _old.SetAsync(copied, new OrderBefore { Name = "c" });
        await _old.SetAsync(missed, new OrderBefore { Name = "m" });
        await _new.SetAsync(own, new OrderAfter { Name = "o", Quantity = 3 });
        Assert.False((await _new.GetAsync<OrderAfter>(copied)).Found);
        await _new.AddAsync(copied, new OrderAfter { Name = "c", Quantity = 1 });

        IReadOnlyDictionary<string, OrderAfter?> found = await _new.GetManyAsync<OrderAfter>([copied, missed, own]);

        Assert.Equal([("c", 1), ("o", 3)], new[] { copied, own }.Select(k => (found[k]!.Name, found[k]!.Quantity)));
        Assert.False(found.ContainsKey(missed));

        // The batch's miss of the other build's item is remembered: the fill goes beside it.
        Assert.Equal(MemcachedStoreResult.Stored, await _new.AddAsync(missed, new OrderAfter { Name = "m", Quantity = 2 }));
        Assert.Equal(("m", 2), Read(await _new.GetAsync<OrderAfter>(missed)));
        Assert.Equal("m", (await _old.GetAsync<OrderBefore>(missed)).Value!.Name);
    }

    [Fact]
    public async Task AddAsync_SlowFillAfterTheKeyWasOverwritten_ItsCopyIsNeverRead()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-slow");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found); // the new build's fill starts with v1 ...

        await _old.SetAsync(key, new OrderBefore { Name = "v2" }); // ... an update overwrites the key meanwhile ...
        Assert.Equal(MemcachedStoreResult.Stored, await _new.AddAsync(key, new OrderAfter { Name = "v1", Quantity = 1 })); // ... and the fill lands late

        // The copy is bound to the item the fill's read saw, which the update replaced: it never counts.
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);
        Assert.Equal("v2", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
    }

    [Fact]
    public async Task AddAsync_OtherBuildsItemNotReadBefore_NotStoredAsAnyAdd()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-no-read");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });

        Assert.Equal(MemcachedStoreResult.NotStored, await _new.AddAsync(key, new OrderAfter { Name = "v1", Quantity = 1 }));
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);
    }

    [Fact]
    public async Task SetAsync_AfterTheOtherBuildsItemWasMissed_OverwritesTheKeyForBoth()
    {
        // A set is an overwrite, whatever came before it: the other build's item is replaced, so it misses.
        string key = MemcachedServerFixture.UniqueKey("copies-set");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);

        await _new.SetAsync(key, new OrderAfter { Name = "v2", Quantity = 2 });

        Assert.Equal(("v2", 2), Read(await _new.GetAsync<OrderAfter>(key)));
        Assert.False((await _old.GetAsync<OrderBefore>(key)).Found);
    }

    [Fact]
    public async Task GetOrCreateAsync_TwoBuilds_EachBuildsFactoryRunsOnceAndNeitherEvictsTheOther()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-goc");
        int oldCalls = 0, newCalls = 0;

        for (int i = 0; i < 3; i++)
        {
            OrderBefore old = await _old.GetOrCreateAsync(key, _ => Task.FromResult(new OrderBefore { Name = $"old {Interlocked.Increment(ref oldCalls)}" }));
            OrderAfter @new = await _new.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter { Name = $"new {Interlocked.Increment(ref newCalls)}", Quantity = 1 }));
            Assert.Equal(("old 1", "new 1"), (old.Name, @new.Name));
        }

        Assert.Equal((1, 1), (oldCalls, newCalls));
        Assert.Equal("new 1", (await _new.GetAsync<OrderAfter>(key)).Value!.Name); // the same copy, through GetAsync
    }

    [Fact]
    public async Task GetOrCreateAsync_AfterTheOtherBuildOverwrites_FactoryRunsAgainAndTheOldCopyIsNeverServed()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-goc-update");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        Assert.Equal("v1", (await _new.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter { Name = "v1", Quantity = 1 }))).Name);

        await _old.SetAsync(key, new OrderBefore { Name = "v2" });

        OrderAfter after = await _new.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter { Name = "v2", Quantity = 2 }));
        Assert.Equal(("v2", 2), (after.Name, after.Quantity));
        Assert.Equal("v2", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
    }

    [Fact]
    public async Task GetOrCreateAsync_OtherBuildsItemTwoWebServersAtOnce_OneFactoryCallForTheFarm()
    {
        string key = MemcachedServerFixture.UniqueKey("copies-goc-farm");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        using var second = new MemcachedClient(Options(fixture, DeployBuilds.NewBuild()));
        int calls = 0;
        async Task<OrderAfter> Slow(CancellationToken ct)
        {
            Interlocked.Increment(ref calls);
            await Task.Delay(300, ct);
            return new OrderAfter { Name = "v1", Quantity = 1 };
        }

        OrderAfter[] read = await Task.WhenAll(_new.GetOrCreateAsync(key, Slow), second.GetOrCreateAsync(key, Slow));

        Assert.Equal(1, calls);
        Assert.All(read, v => Assert.Equal(("v1", 1), (v.Name, v.Quantity)));
        Assert.Equal("v1", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
    }

    [Theory]
    [InlineData("overwrites")]
    [InlineData("deletes and re-adds")]
    public async Task GetOrCreateAsync_OtherBuildUpdatesWhileTheCopysFactoryIsHeld_LaterCallersNeverGetTheHeldValue(string update)
    {
        // The new build's factory has loaded v1 and is held there while the old build writes v2 (an overwrite, or a
        // delete and an add as another web server's cache-aside fill): whatever the held call stores once let go, no
        // call that begins after it, on this web server or another of the build, may get v1.
        string key = MemcachedServerFixture.UniqueKey("copies-goc-held");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var held = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<OrderAfter> first = _new.GetOrCreateAsync(key, async _ =>
        {
            started.SetResult();
            await held.Task;
            return new OrderAfter { Name = "v1", Quantity = 1 };
        });
        await started.Task.WaitAsync(TimeSpan.FromSeconds(10));

        if (update == "overwrites")
        {
            Assert.Equal(MemcachedStoreResult.Stored, await _old.SetAsync(key, new OrderBefore { Name = "v2" }));
        }
        else
        {
            Assert.True(await _old.DeleteAsync(key));
            Assert.Equal(MemcachedStoreResult.Stored, await _old.AddAsync(key, new OrderBefore { Name = "v2" }));
        }

        held.SetResult();
        Assert.Equal("v1", (await first.WaitAsync(TimeSpan.FromSeconds(10))).Name); // its caller arrived before the update

        using var second = new MemcachedClient(Options(fixture, DeployBuilds.NewBuild()));
        int calls = 0;
        Task<OrderAfter> Load(CancellationToken _) => Task.FromResult(new OrderAfter { Name = $"v2 load {Interlocked.Increment(ref calls)}", Quantity = 2 });
        OrderAfter later = await _new.GetOrCreateAsync(key, Load);
        OrderAfter elsewhere = await second.GetOrCreateAsync(key, Load);

        Assert.Equal(("v2 load 1", 2), (later.Name, later.Quantity));
        Assert.Equal("v2 load 1", elsewhere.Name); // the copy the later call stored, not the held one
        Assert.Equal(1, calls);
        Assert.Equal(("v2 load 1", 2), Read(await _new.GetAsync<OrderAfter>(key)));
        Assert.Equal("v2", (await _old.GetAsync<OrderBefore>(key)).Value!.Name);
    }

    [Theory]
    [InlineData("old deletes")]
    [InlineData("old overwrites")]
    public async Task GetManyAsync_CopyThenAnUpdateByTheOtherBuild_NeverReadsTheCopy(string update)
    {
        string key = MemcachedServerFixture.UniqueKey("copies-many-update");
        string own = MemcachedServerFixture.UniqueKey("copies-many-update");
        await _old.SetAsync(key, new OrderBefore { Name = "v1" });
        await _new.SetAsync(own, new OrderAfter { Name = "o", Quantity = 3 });
        Assert.False((await _new.GetAsync<OrderAfter>(key)).Found);
        Assert.Equal(MemcachedStoreResult.Stored, await _new.AddAsync(key, new OrderAfter { Name = "v1", Quantity = 1 }));
        Assert.Equal("v1", (await _new.GetManyAsync<OrderAfter>([key, own]))[key]!.Name); // the copy is read before the update

        if (update == "old deletes")
        {
            Assert.True(await _old.DeleteAsync(key));
        }
        else
        {
            Assert.Equal(MemcachedStoreResult.Stored, await _old.SetAsync(key, new OrderBefore { Name = "v2" }));
        }

        IReadOnlyDictionary<string, OrderAfter?> found = await _new.GetManyAsync<OrderAfter>([key, own]);

        Assert.Equal([own], found.Keys);
        Assert.Equal(update == "old overwrites", (await _old.GetAsync<OrderBefore>(key)).Found);
    }

    public void Dispose()
    {
        _old.Dispose();
        _new.Dispose();
    }

    private static (string?, int) Read(MemcachedGetResult<OrderAfter> result)
    {
        Assert.True(result.Found);
        return (result.Value!.Name, result.Value.Quantity);
    }

    private static MemcachedClientOptions Options(MemcachedServerFixture fixture, ProtobufTranscoder transcoder)
    {
        MemcachedClientOptions options = fixture.Options();
        options.Transcoder = transcoder;
        return options;
    }
}
