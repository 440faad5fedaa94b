using CacheSerializer.Tests.Memcached.Fixtures;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>A change made on another server while a factory runs wins over the factory's older value, at L2 and in
/// every L1 (docs/hybrid.md, "L2: one factory call per change, no stale value"): Microsoft's HybridCache stores the
/// factory's value with a plain set after it returns, so there the older value overwrites the removal.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedHybridCacheRaceTests(MemcachedServerFixture fixture)
{
    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Theory]
    [InlineData(HybridCacheCoherence.Bounded, "remove", 2)]
    [InlineData(HybridCacheCoherence.Strict, "remove", 2)]
    [InlineData(HybridCacheCoherence.Bounded, "set", 1)]
    [InlineData(HybridCacheCoherence.Strict, "set", 1)]
    public async Task ChangeOnAnotherServer_DuringTheFactory_NoServerReadsTheFactorysOlderValueAfterward(HybridCacheCoherence mode, string change, int databaseReads)
    {
        using var farm = new HybridFarm(fixture.Primary, 2, o => o.L1Coherence = mode);
        await farm.UntilPolledAsync();
        string key = Key($"hybrid-{change}-during");
        var database = new Database();
        Task<string> filling = farm[0].GetOrCreateAsync(key, database.SlowRead).AsTask();
        await database.Started.WaitAsync(Bound.NotStuck);

        database.Update();
        await (change == "remove" ? farm[1].RemoveAsync(key) : farm[1].SetAsync(key, "v2")); // a set needs no database read
        database.Release();

        Assert.Equal("v1", await filling.WaitAsync(Bound.NotStuck)); // its caller began before the update
        Assert.Equal(["v2", "v2", "v2", "v2"], await ReadEverywhereTwiceAsync(farm, key, database));
        Assert.Equal(databaseReads, database.Reads);
    }

    private static async Task<string[]> ReadEverywhereTwiceAsync(HybridFarm farm, string key, Database database)
    {
        var values = new List<string>();
        for (int i = 0; i < farm.Count; i++)
        {
            values.Add(await farm[i].GetOrCreateAsync(key, database.Read));
            values.Add(await farm[i].GetOrCreateAsync(key, database.Read));
        }

        return [.. values];
    }

    /// <summary>One row: its version, a first read held until released, and how many reads ran.</summary>
    private sealed class Database
    {
        private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _release = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _version = 1;
        private int _reads;

        public Task Started => _started.Task;

        public int Reads => Volatile.Read(ref _reads);

        public void Update() => Interlocked.Increment(ref _version);

        public void Release() => _release.SetResult();

        public async ValueTask<string> SlowRead(CancellationToken token)
        {
            string value = Read();
            _started.TrySetResult();
            await _release.Task.WaitAsync(token);
            return value;
        }

        public ValueTask<string> Read(CancellationToken token) => ValueTask.FromResult(Read());

        private string Read()
        {
            Interlocked.Increment(ref _reads);
            return $"v{Volatile.Read(ref _version)}";
        }
    }
}
