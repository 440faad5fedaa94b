using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientKeyPlacementTests(MemcachedServerFixture fixture)
{
    [Theory]
    [InlineData(KeyPlacement.EnyimMemcachedCore, false)]
    [InlineData(KeyPlacement.EnyimMemcachedCoreLegacy, true)]
    public async Task SetAsync_EnyimPlacement3000Keys_EachStoredOnlyOnTheServerEnyimMemcachedCorePicks(KeyPlacement placement, bool legacy)
    {
        string run = Guid.NewGuid().ToString("N");
        string[] keys = [.. Enumerable.Range(0, 3000).Select(i => $"placement:{run}:{i}")];
        // EnyimMemcachedCore's endpoint for an address that parses: IPEndPoint.ToString(), "127.0.0.1:port".
        var expected = new EnyimLocator([.. fixture.Servers.Select(s => s.Endpoint)], legacy);
        using MemcachedClient client = fixture.CreateClient(serverCount: 3, o => o.KeyPlacement = placement);

        IReadOnlyList<IReadOnlyCollection<string>> found = await PlacementProbe.StoreAndFindAsync(fixture, client, keys);

        for (int s = 0; s < 3; s++)
        {
            foreach (string key in found[s])
            {
                Assert.Equal(s, expected.Locate(Encoding.UTF8.GetBytes(key)));
                Assert.Equal(fixture.Servers[s].Endpoint, client.GetServerForKey(key));
            }
        }
    }

    [Fact]
    public void GetServerForKey_DefaultPlacement_IsKetama()
    {
        using MemcachedClient client = fixture.CreateClient(serverCount: 3);
        var ketama = new KetamaLocator([.. fixture.Options(3).Servers.Select(s => Parse(s))]);

        for (int i = 0; i < 200; i++)
        {
            string key = $"ketama:{i}";
            Assert.Equal(fixture.Servers[ketama.Locate(Encoding.UTF8.GetBytes(key))].Endpoint, client.GetServerForKey(key));
        }
    }

    private static ServerEndpoint Parse(string text)
    {
        Assert.True(ServerEndpoint.TryParse(text, out ServerEndpoint? endpoint, out string error), error);
        return endpoint!;
    }
}
