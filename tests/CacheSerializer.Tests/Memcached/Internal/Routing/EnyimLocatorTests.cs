using System.Net;
using System.Text;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Routing;

namespace CacheSerializer.Tests.Memcached.Internal.Routing;

public sealed class EnyimLocatorTests
{
    public static TheoryData<string, bool> Lists()
    {
        var data = new TheoryData<string, bool>();
        foreach ((string name, _, _, _) in EnyimPlacementVectors.ServerLists)
        {
            data.Add(name, false);
            data.Add(name, true);
        }

        return data;
    }

    public static TheoryData<string, bool, string, uint, int> Keys()
    {
        var data = new TheoryData<string, bool, string, uint, int>();
        foreach ((string list, bool legacy, string key, uint hash, int server) in EnyimPlacementVectors.Keys)
        {
            data.Add(list, legacy, key, hash, server);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void EndPointText_ConfiguredServers_AreTheEndPointsEnyimMemcachedCoreHashes(string list, bool legacy)
    {
        _ = legacy;
        (_, string[] configured, bool tls, string[] endPoints) = EnyimPlacementVectors.ServerLists.Single(l => l.Name == list);

        string[] texts = [.. configured.Select(s => EnyimLocator.EndPointText(Parse(s), tls))];

        Assert.Equal(endPoints, texts);
    }

    [Fact]
    public void EndPointText_EachForm_IsDotNetsEndPointString()
    {
        // EnyimMemcachedCore hashes EndPoint.ToString() of the IPEndPoint or DnsEndPoint it builds: the BCL's strings.
        Assert.Equal(new IPEndPoint(IPAddress.Parse("10.0.0.1"), 11211).ToString(), EnyimLocator.EndPointText(Parse("10.0.0.1:11211"), tls: false));
        Assert.Equal("10.0.0.1:11211", EnyimLocator.EndPointText(Parse("10.0.0.1"), tls: false));
        Assert.Equal("Unspecified/cache-a:11211", EnyimLocator.EndPointText(Parse("cache-a:11211"), tls: false));
        Assert.Equal(new DnsEndPoint("Cache-A", 11211).ToString(), EnyimLocator.EndPointText(Parse("Cache-A:11211"), tls: false));
        Assert.Equal("[::1]:11211", EnyimLocator.EndPointText(Parse("[::1]:11211"), tls: false));
        Assert.Equal("[fe80::1]:11300", EnyimLocator.EndPointText(Parse("[FE80:0:0::1]:11300"), tls: false));
        Assert.Equal("Unspecified/10.0.0.1:11211", EnyimLocator.EndPointText(Parse("10.0.0.1:11211"), tls: true));
    }

    [Theory]
    [MemberData(nameof(Keys))]
    public void Locate_VectorKey_IsTheServerEnyimMemcachedCorePicks(string list, bool legacy, string key, uint hash, int server)
    {
        EnyimLocator locator = Locator(list, legacy);

        Assert.Equal(hash, Fnv1a.Hash(Encoding.UTF8.GetBytes(key), legacy ? 0u : 2166136261u));
        Assert.Equal(server, locator.Locate(Encoding.UTF8.GetBytes(key)));
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Locate_ThreeThousandKeys_EachOnTheServerEnyimMemcachedCorePicks(string list, bool legacy)
    {
        (_, _, uint firstPoint, uint lastPoint, int lastOwner, string servers) = EnyimPlacementVectors.ThreeThousandKeys.Single(v => v.List == list && v.Legacy == legacy);
        EnyimLocator locator = Locator(list, legacy);

        string actual = string.Concat(Enumerable.Range(0, 3000).Select(n => locator.Locate(Encoding.UTF8.GetBytes($"key:{n}")).ToString(System.Globalization.CultureInfo.InvariantCulture)));

        Assert.Equal(servers, actual);
        Assert.Equal(lastOwner, locator.LocateHash(firstPoint - 1)); // below every point: the last point's server
        Assert.Equal(locator.LocateHash(firstPoint), locator.LocateHash(lastPoint + 1)); // above every point: the first
    }

    [Fact]
    public void Constructor_ThreeServers_HasOneHundredPointsEach()
    {
        Assert.Equal(300, Locator("Addresses", legacy: false).PointCount);
        Assert.Equal(300, Locator("Addresses", legacy: true).PointCount);
    }

    [Fact]
    public void Fnv1a_KnownInputs_AreTheFnv1a32Values()
    {
        // The FNV-1a 32-bit reference values (the IETF draft's test vectors): "" and "a" and "foobar".
        Assert.Equal(0x811c9dc5u, Fnv1a.Hash(""u8, 2166136261u));
        Assert.Equal(0xe40c292cu, Fnv1a.Hash("a"u8, 2166136261u));
        Assert.Equal(0xbf9cf968u, Fnv1a.Hash("foobar"u8, 2166136261u));
    }

    private static EnyimLocator Locator(string list, bool legacy) =>
        new(EnyimPlacementVectors.ServerLists.Single(l => l.Name == list).EndPoints, legacy);

    private static ServerEndpoint Parse(string text)
    {
        Assert.True(ServerEndpoint.TryParse(text, out ServerEndpoint? endpoint, out string error), error);
        return endpoint!;
    }
}
