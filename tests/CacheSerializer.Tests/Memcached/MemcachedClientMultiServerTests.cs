using System.Text;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientMultiServerTests : IDisposable
{
    private readonly MemcachedServerFixture _fixture;
    private readonly MemcachedClient _client;

    public MemcachedClientMultiServerTests(MemcachedServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.CreateClient(serverCount: 3);
    }

    public void Dispose() => _client.Dispose();

    [Fact]
    public async Task ConcurrentOperations_1000FromManyTasks_EveryValueChecked()
    {
        string run = Guid.NewGuid().ToString("N");
        int mismatches = 0;
        await Parallel.ForEachAsync(Enumerable.Range(0, 1000), new ParallelOptions { MaxDegreeOfParallelism = 64 }, async (i, ct) =>
        {
            string key = $"conc:{run}:{i}";
            string value = $"value-{i}-{new string((char)('a' + (i % 26)), i % 300)}";
            Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, value, null, ct));
            MemcachedGetResult<string> read = await _client.GetAsync<string>(key, ct);
            if (read.Value != value)
            {
                Interlocked.Increment(ref mismatches);
            }
        });

        Assert.Equal(0, mismatches);
    }

    [Fact]
    public async Task ConcurrentOperations_AllStartedAtOnce_EveryValueChecked()
    {
        string run = Guid.NewGuid().ToString("N");
        string[] keys = Enumerable.Range(0, 1000).Select(i => $"burst:{run}:{i}").ToArray();

        await Task.WhenAll(keys.Select(k => _client.SetAsync(k, Encoding.UTF8.GetBytes(k))));
        MemcachedGetResult<byte[]>[] reads = await Task.WhenAll(keys.Select(k => _client.GetAsync<byte[]>(k)));

        for (int i = 0; i < keys.Length; i++)
        {
            Assert.Equal(keys[i], Encoding.UTF8.GetString(reads[i].Value!));
        }
    }

    [Fact]
    public async Task GetManyAsync_1000KeysOver3Servers_ReturnsExactlyTheHits()
    {
        string run = Guid.NewGuid().ToString("N");
        string[] keys = Enumerable.Range(0, 1000).Select(i => $"many:{run}:{i}").ToArray();
        string[] stored = keys.Where((_, i) => i % 3 != 0).ToArray();
        await Task.WhenAll(stored.Select(k => _client.SetAsync(k, "v:" + k)));

        IReadOnlyDictionary<string, string?> hits = await _client.GetManyAsync<string>(keys.Concat(keys.Take(10)));

        Assert.Equal(stored.Length, hits.Count);
        foreach (string key in stored)
        {
            Assert.Equal("v:" + key, hits[key]);
        }

        Assert.Equal(3, keys.Select(_client.GetServerForKey).Distinct().Count());
    }

    [Fact]
    public async Task GetManyAsync_LargeValues_ReadAcrossManyReceives()
    {
        string run = Guid.NewGuid().ToString("N");
        var values = Enumerable.Range(0, 40).ToDictionary(i => $"big:{run}:{i}", i => Enumerable.Range(0, 200_000 + i).Select(b => (byte)(b ^ i)).ToArray());
        await Task.WhenAll(values.Select(p => _client.SetAsync(p.Key, p.Value)));

        IReadOnlyDictionary<string, byte[]?> hits = await _client.GetManyAsync<byte[]>(values.Keys);

        Assert.Equal(values.Count, hits.Count);
        foreach ((string key, byte[] value) in values)
        {
            Assert.Equal(value, hits[key]);
        }
    }

    [Fact]
    public async Task GetManyAsync_NoKeysAndOddKeys_Works()
    {
        string spaced = "many spaced " + Guid.NewGuid();
        string empty = string.Empty;
        await _client.SetAsync(spaced, string.Empty);
        await _client.SetAsync(empty, "empty-key");

        Assert.Empty(await _client.GetManyAsync<string>([]));
        IReadOnlyDictionary<string, string?> hits = await _client.GetManyAsync<string>([spaced, empty, "nothing-" + Guid.NewGuid()]);

        Assert.Equal(string.Empty, hits[spaced]);
        Assert.Equal("empty-key", hits[empty]);
        Assert.Equal(2, hits.Count);
        await _client.DeleteAsync(empty);
    }

    [Fact]
    public async Task KeyDistribution_3Servers_EachKeyIsOnTheKetamaServerOnly()
    {
        // The placement function is checked against libmemcached's vectors in KetamaLocatorTests; here the client must
        // actually store every key on the server that function names, and on no other.
        string run = Guid.NewGuid().ToString("N");
        string[] keys = Enumerable.Range(0, 300).Select(i => $"dist:{run}:{i}").ToArray();
        await Task.WhenAll(keys.Select(k => _client.SetAsync(k, k)));
        var locator = new KetamaLocator(_fixture.Servers.Select(s => new ServerEndpoint("127.0.0.1", s.Port, 1)).ToList());
        var perServer = new Dictionary<string, int>();

        foreach (MemcachedServer server in _fixture.Servers)
        {
            using var single = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
            IReadOnlyDictionary<string, string?> onServer = await single.GetManyAsync<string>(keys);
            foreach (string key in keys)
            {
                int expected = locator.Locate(Encoding.ASCII.GetBytes(key));
                Assert.Equal(_fixture.Servers[expected] == server, onServer.ContainsKey(key));
            }

            perServer[server.Endpoint] = onServer.Count;
        }

        Assert.Equal(300, perServer.Values.Sum());
        Assert.All(perServer.Values, count => Assert.InRange(count, 50, 160));
    }

    [Fact]
    public async Task FlushAllAsync_EmptiesEveryServer()
    {
        await using MemcachedClient client = _fixture.CreateClient(serverCount: 3, o => o.KeyPrefix = "flush:");
        string[] keys = Enumerable.Range(0, 30).Select(i => $"{Guid.NewGuid():N}{i}").ToArray();
        await Task.WhenAll(keys.Select(k => client.SetAsync(k, "x")));

        // Only this collection's tests touch these servers; they use unique keys and never rely on another test's.
        await client.FlushAllAsync();

        Assert.Empty(await client.GetManyAsync<string>(keys));
    }
}
