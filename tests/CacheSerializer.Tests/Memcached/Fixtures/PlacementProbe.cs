using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Where a client really put keys: stores each through it, then asks every server on its own which keys it holds.</summary>
internal static class PlacementProbe
{
    /// <summary>Stores every key (its own name as the value) through <paramref name="client"/> and returns, per server of
    /// <paramref name="fixture"/> (the first <paramref name="serverCount"/>), the keys that server alone holds.
    /// <paramref name="storedAs"/>: the name memcached holds a key under (a key transformer's), when not its own.</summary>
    public static async Task<IReadOnlyList<IReadOnlyCollection<string>>> StoreAndFindAsync(MemcachedServerFixture fixture, MemcachedClient client, string[] keys, int serverCount = 3, Func<string, string>? storedAs = null)
    {
        storedAs ??= static key => key;
        Dictionary<string, string> callerKey = keys.ToDictionary(storedAs, static key => key, StringComparer.Ordinal);
        await Parallel.ForEachAsync(keys, new ParallelOptions { MaxDegreeOfParallelism = 32 }, async (key, ct) =>
            Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, key, TimeSpan.FromMinutes(5), ct)));

        var found = new List<IReadOnlyCollection<string>>();
        for (int s = 0; s < serverCount; s++)
        {
            using var single = new MemcachedClient(new MemcachedClientOptions { Servers = { fixture.Servers[s].Endpoint } });
            found.Add([.. (await single.GetManyAsync<string>(callerKey.Keys)).Keys.Select(stored => callerKey[stored])]);
        }

        Assert.Equal(keys.Length, found.Sum(static f => f.Count));
        Assert.All(found, static f => Assert.True(f.Count > 0, "every server holds some of the keys"));
        return found;
    }
}
