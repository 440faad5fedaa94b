using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Tests.Memcached.Fixtures;
using CacheSerializer.Tests.Transcoding;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// A new user's application with its EnyimMemcachedCore section unchanged, on three real memcached servers: every key
/// on the server EnyimMemcachedCore would choose (its DefaultNodeLocator over the endpoint strings its configuration
/// builds: an IPEndPoint for an address that parses, a DnsEndPoint, "Unspecified/host:port", for a host name;
/// cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs,
/// ConfigureServers), and objects stored as its DefaultTranscoder stores them (src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs,
/// SerializeObject: flags 0x0101, <c>new JsonSerializer()</c> into a BsonDataWriter).
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientEnyimSectionTests(MemcachedServerFixture fixture)
{
    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("localhost")]
    public async Task SetAsync_UnchangedEnyimSection3000Keys_EachOnlyOnTheServerEnyimMemcachedCorePicks(string address)
    {
        string run = Guid.NewGuid().ToString("N");
        string[] keys = [.. Enumerable.Range(0, 3000).Select(i => $"section:{run}:{i}")];
        var enyim = new EnyimLocator(
            [.. fixture.Servers.Select(s => address == "localhost" ? $"Unspecified/localhost:{s.Port}" : $"127.0.0.1:{s.Port}")], legacy: false);
        await using ServiceProvider provider = Section(address).BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();

        IReadOnlyList<IReadOnlyCollection<string>> found = await PlacementProbe.StoreAndFindAsync(fixture, client, keys);

        for (int s = 0; s < 3; s++)
        {
            Assert.All(found[s], key => Assert.Equal(s, enyim.Locate(Encoding.UTF8.GetBytes(key))));
        }
    }

    [Fact]
    public async Task SetAsync_ObjectThroughUnchangedEnyimSection_StoredAsDefaultTranscoderStoresItAndReadBackEqual()
    {
        var order = new Order { Id = 42, Customer = "Zoë", Lines = ["a", "b"], Total = 12.5 };
        string key = MemcachedServerFixture.UniqueKey("section-object");
        await using ServiceProvider provider = Section("127.0.0.1").BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, order));

        int server = fixture.Servers.ToList().FindIndex(s => s.Endpoint == client.GetServerForKey(key));
        using var raw = new MemcachedClient(new MemcachedClientOptions { Servers = { fixture.Servers[server].Endpoint }, Transcoder = new ItemTranscoder() });
        CacheItem stored = (await raw.GetAsync<CacheItem>(key)).Value;
        Assert.Equal(0x0101u, stored.Flags);
        Assert.Equal(DefaultTranscoderReference.SerializeObject(order), stored.Data.ToArray());
        Assert.Equal(order, await client.GetValueAsync<Order>(key));
    }

    [Fact]
    public async Task SetAsync_ObjectsThroughSha1KeyTransformer_StoredUnderEnyimMemcachedCoresKeyOnTheServerItPicksForIt()
    {
        // EnyimMemcachedCore transforms the key first and places what it stores (cnblogs/EnyimMemcachedCore at
        // e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/MemcachedClient.cs, PerformStore: the transformed
        // key goes to Pool.Locate). 300 keys on three servers: keys placed by the caller's key would land elsewhere for
        // about two in three of them.
        await using ServiceProvider provider = Section("127.0.0.1", """, "KeyTransformer": "Enyim.Caching.Memcached.SHA1KeyTransformer" """).BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();
        string run = Guid.NewGuid().ToString("N");
        string[] keys = [.. Enumerable.Range(0, 300).Select(i => $"sha1:{run}:{i}")];
        var enyim = new EnyimLocator([.. fixture.Servers.Select(s => $"127.0.0.1:{s.Port}")], legacy: false);

        IReadOnlyList<IReadOnlyCollection<string>> found = await PlacementProbe.StoreAndFindAsync(fixture, client, keys, storedAs: Sha1Key);

        for (int s = 0; s < 3; s++)
        {
            Assert.All(found[s], key => Assert.Equal(s, enyim.Locate(Encoding.UTF8.GetBytes(Sha1Key(key)))));
        }

        int placedElsewhereByCallerKey = keys.Count(key => enyim.Locate(Encoding.UTF8.GetBytes(key)) != enyim.Locate(Encoding.UTF8.GetBytes(Sha1Key(key))));
        Assert.InRange(placedElsewhereByCallerKey, 100, 300);
        Assert.Equal(keys[7], await client.GetValueAsync<string>(keys[7]));
        Assert.Equal([keys[7]], (await client.GetManyAsync<string>([keys[7]])).Keys); // the caller's key, not the stored one
    }

    [Fact]
    public async Task SetAsync_ShortSha1KeyTransformerName_KeysStoredUnchangedOnTheServerEnyimMemcachedCorePicksAndWarnedOnceAtStart()
    {
        // EnyimMemcachedCore loads "SHA1KeyTransformer" with Type.GetType, which finds nothing for a name without its
        // namespace, and keeps DefaultKeyTransformer (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
        // src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs, the constructor): its keys are stored as given.
        var logs = new ListLoggerProvider();
        await using ServiceProvider provider = Section("127.0.0.1", """, "KeyTransformer": "SHA1KeyTransformer" """)
            .AddLogging(logging => logging.AddProvider(logs))
            .BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();
        string run = Guid.NewGuid().ToString("N");
        string[] keys = [.. Enumerable.Range(0, 300).Select(i => $"short-sha1:{run}:{i}")];
        var enyim = new EnyimLocator([.. fixture.Servers.Select(s => $"127.0.0.1:{s.Port}")], legacy: false);

        IReadOnlyList<IReadOnlyCollection<string>> found = await PlacementProbe.StoreAndFindAsync(fixture, client, keys);

        for (int s = 0; s < 3; s++)
        {
            Assert.All(found[s], key => Assert.Equal(s, enyim.Locate(Encoding.UTF8.GetBytes(key))));
        }

        Assert.Equal(
            [
                "memcached client: enyimMemcached:KeyTransformer: 'SHA1KeyTransformer' is not a type Type.GetType finds (it takes the "
                + "exact full name, Enyim.Caching.Memcached.SHA1KeyTransformer), so EnyimMemcachedCore ignored it and kept keys "
                + "unchanged (its DefaultKeyTransformer); this client keeps them unchanged too, so both find the same items. To "
                + "really use SHA1KeyTransformer, write \"Enyim.Caching.Memcached.SHA1KeyTransformer\" in every application's "
                + "setting at once (that re-keys the whole cache: every entry is missed once); else remove the setting",
            ],
            logs.Entries.Where(static e => e.Level == LogLevel.Warning).Select(static e => e.Message));
    }

    /// <summary>SHA1KeyTransformer's key: base64 of the SHA-1 of the key's UTF-16LE code units.</summary>
    private static string Sha1Key(string key) => Convert.ToBase64String(System.Security.Cryptography.SHA1.HashData(Encoding.Unicode.GetBytes(key)));

    private IServiceCollection Section(string address, string extra = "")
    {
        string servers = string.Join(", ", fixture.Servers.Select(s => $$"""{ "Address": "{{address}}", "Port": {{s.Port}} }"""));
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "enyimMemcached": { "Servers": [ {{servers}} ]{{extra}} } }""")))
            .Build();
        return new ServiceCollection().AddMemcached(configuration.GetSection("enyimMemcached"));
    }

    public sealed record Order
    {
        public int Id { get; set; }

        public string? Customer { get; set; }

        public List<string> Lines { get; set; } = [];

        public double Total { get; set; }

        public bool Equals(Order? other) =>
            other is not null && Id == other.Id && Customer == other.Customer && Lines.SequenceEqual(other.Lines) && Total == other.Total;

        public override int GetHashCode() => Id;
    }
}
