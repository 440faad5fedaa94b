using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Each level's <see cref="HybridCacheEntryFlags"/> on its own, as Microsoft's HybridCache reads them: a
/// disabled read skips that level, a disabled write leaves it as it was.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheFlagTests(MemcachedServerFixture fixture)
{
    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    private static HybridCacheEntryOptions With(HybridCacheEntryFlags flags) => new() { Flags = flags };

    [Fact]
    public async Task GetOrCreateAsync_DisableLocalCacheRead_SkipsTheLocalCopyAndReplacesIt()
    {
        using var farm = new HybridFarm(fixture.Primary, 1);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-flag-l1read");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {++calls}");

        string local = await farm[0].GetOrCreateAsync(key, Factory, With(HybridCacheEntryFlags.DisableDistributedCacheWrite));
        string skipped = await farm[0].GetOrCreateAsync(key, Factory, With(HybridCacheEntryFlags.DisableLocalCacheRead));
        string after = await farm[0].GetOrCreateAsync(key, Factory);

        Assert.Equal(("made 1", "made 2", "made 2"), (local, skipped, after));
        Assert.Equal(2, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_DisableLocalCacheWrite_StoredInMemcachedOnly()
    {
        using var farm = new HybridFarm(fixture.Primary, 1);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-flag-l1write");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {++calls}");

        string made = await farm[0].GetOrCreateAsync(key, Factory, With(HybridCacheEntryFlags.DisableLocalCacheWrite));

        Assert.Equal("made 1", made);
        Assert.Equal(0, farm.Internal(0).Local.Count);
        Assert.True((await farm.Client(0).Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
        Assert.Equal("made 1", await farm[0].GetOrCreateAsync(key, Factory));
        Assert.Equal(1, calls);
    }

    [Fact]
    public async Task GetOrCreateAsync_DisableDistributedCacheRead_RunsTheFactoryAndStoresItsValue()
    {
        using var farm = new HybridFarm(fixture.Primary, 3);
        await farm.UntilPolledAsync();
        string key = Key("hybrid-flag-l2read");
        int calls = 0;
        ValueTask<string> Factory(CancellationToken _) => ValueTask.FromResult($"made {Interlocked.Increment(ref calls)}");

        string first = await farm[0].GetOrCreateAsync(key, Factory);
        string skipped = await farm[1].GetOrCreateAsync(key, Factory, With(HybridCacheEntryFlags.DisableDistributedCacheRead));
        string third = await farm[2].GetOrCreateAsync(key, Factory);

        Assert.Equal(("made 1", "made 2", "made 2"), (first, skipped, third));
        Assert.Equal(2, calls);
    }
}
