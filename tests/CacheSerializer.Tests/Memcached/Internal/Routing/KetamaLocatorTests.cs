using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Routing;

namespace CacheSerializer.Tests.Memcached.Internal.Routing;

public class KetamaLocatorTests
{
    private static IReadOnlyList<ServerEndpoint> Parse(IEnumerable<string> servers)
    {
        var options = new MemcachedClientOptions();
        foreach (string s in servers)
        {
            options.Servers.Add(s);
        }

        return ClientSettings.Create(options).Servers;
    }

    [Fact]
    public void HashKey_LibmemcachedVectors_MatchMd5KeyHash()
    {
        foreach ((string key, uint keyHash, _, _) in LibmemcachedKetamaVectors.Cases)
        {
            Assert.Equal(keyHash, KetamaLocator.HashKey(Encoding.ASCII.GetBytes(key)));
        }
    }

    [Fact]
    public void Locate_LibmemcachedWeightedVectors_PicksSameServerForAll99Keys()
    {
        IReadOnlyList<ServerEndpoint> servers = Parse(LibmemcachedKetamaVectors.Servers);
        var locator = new KetamaLocator(servers);

        Assert.Equal(99, LibmemcachedKetamaVectors.Cases.Length);
        foreach ((string key, _, _, string server) in LibmemcachedKetamaVectors.Cases)
        {
            Assert.Equal(server, servers[locator.Locate(Encoding.ASCII.GetBytes(key))].Host);
        }
    }

    [Fact]
    public void Locate_HashAfterLastPoint_WrapsToFirstPoint()
    {
        // libmemcached's test: "VDEAAAAA hashes to fffcd1b5, after the last continuum point".
        IReadOnlyList<ServerEndpoint> servers = Parse(LibmemcachedKetamaVectors.Servers);
        var locator = new KetamaLocator(servers);

        Assert.Equal(0xfffcd1b5u, KetamaLocator.HashKey("VDEAAAAA"u8));
        Assert.Equal(locator.LocateHash(0), locator.Locate("VDEAAAAA"u8));
    }

    [Fact]
    public void Constructor_EqualWeights_Gives160PointsPerServer()
    {
        var locator = new KetamaLocator(Parse(["127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.1:11213"]));

        Assert.Equal(480, locator.PointCount);
    }

    [Fact]
    public void Locate_ServerAdded_MovesAboutAQuarterOfKeys()
    {
        var three = new KetamaLocator(Parse(["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"]));
        var four = new KetamaLocator(Parse(["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211", "10.0.0.4:11211"]));
        int moved = 0;
        for (int i = 0; i < 10_000; i++)
        {
            byte[] key = Encoding.ASCII.GetBytes($"key-{i}");
            int before = three.Locate(key);
            int after = four.Locate(key);
            if (before != after)
            {
                moved++;
                Assert.Equal(3, after); // consistent hashing: a key only ever moves to the new server
            }
        }

        Assert.InRange(moved, 1_500, 3_500);
    }
}
