using System.Globalization;
using System.Net;
using System.Text;
using CacheSerializer.Memcached.Internal.Configuration;

namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>Places keys as EnyimMemcachedCore does with several servers: its <c>DefaultNodeLocator</c>, or its
/// <c>LegacyNodeLocator</c> (<c>UseLegacyNodeLocator</c>), so a farm switching from it keeps every key on its server.</summary>
/// <remarks>
/// Read from EnyimMemcachedCore's published source (docs/client.md, "Key placement"), not taken from it:
/// <list type="bullet">
/// <item>each server gets 100 points, the FNV-1a 32-bit hash of the UTF-8 string <c>"{i}-{endpoint}"</c> (legacy:
/// <c>"{endpoint}-{i}"</c>), where <c>endpoint</c> is .NET's <c>EndPoint.ToString()</c> of the endpoint it builds from its
/// configuration (<see cref="EndPointText"/>); a point two servers share belongs to the later one;</item>
/// <item>a key hashes with FNV-1a 32-bit over its UTF-8 bytes and belongs to the first point above its hash (an equal
/// point takes it); above every point it wraps to the first point, but below every point it goes to the <b>last</b>
/// point, not the first;</item>
/// <item>legacy only: its FNV-1a instances are created uninitialised, so a key's hash, and the first point of each
/// server, start from 0 instead of the offset basis (.NET's <c>HashAlgorithm</c> initialises only after a hash).</item>
/// </list>
/// Unlike EnyimMemcachedCore, the ring is not rebuilt when a server dies (unless <see cref="MemcachedClientOptions.AutoEject"/>
/// is on, which rebuilds it over the servers that are up, as EnyimMemcachedCore does): a dead server's keys are misses
/// until it is back, rather than moved to another server.
/// </remarks>
internal sealed class EnyimLocator : IKeyLocator
{
    /// <summary>EnyimMemcachedCore's points per server (its locators' <c>serverAddressMutations</c>).</summary>
    internal const int PointsPerServer = 100;

    private readonly uint[] _points;
    private readonly int[] _owners;
    private readonly uint _keySeed;

    /// <summary>Builds the points of each server.</summary>
    /// <param name="endPoints">Each server's endpoint text, as <see cref="EndPointText"/> gives it, in configuration order.</param>
    /// <param name="legacy">Whether to place as <c>LegacyNodeLocator</c> does.</param>
    internal EnyimLocator(IReadOnlyList<string> endPoints, bool legacy)
    {
        ArgumentNullException.ThrowIfNull(endPoints);
        var owners = new Dictionary<uint, int>(endPoints.Count * PointsPerServer);
        for (int index = 0; index < endPoints.Count; index++)
        {
            for (int i = 0; i < PointsPerServer; i++)
            {
                string text = legacy
                    ? string.Create(CultureInfo.InvariantCulture, $"{endPoints[index]}-{i}")
                    : string.Create(CultureInfo.InvariantCulture, $"{i}-{endPoints[index]}");
                uint seed = legacy && i == 0 ? 0 : Fnv1a.OffsetBasis;
                owners[Fnv1a.Hash(Encoding.UTF8.GetBytes(text), seed)] = index;
            }
        }

        _points = [.. owners.Keys];
        Array.Sort(_points);
        _owners = Array.ConvertAll(_points, p => owners[p]);
        _keySeed = legacy ? 0 : Fnv1a.OffsetBasis;
    }

    internal int PointCount => _points.Length;

    /// <summary>Returns the endpoint text EnyimMemcachedCore hashes for a server: with TLS (<c>UseSslStream</c>) always a
    /// <see cref="DnsEndPoint"/> (<c>Unspecified/host:port</c>); otherwise an <see cref="IPEndPoint"/> when the address
    /// parses as one (<c>10.0.0.1:11211</c>, <c>[::1]:11211</c>, in .NET's canonical form) and a <see cref="DnsEndPoint"/> when not.</summary>
    /// <param name="server">The server as configured.</param>
    /// <param name="tls">Whether the client reaches it over TLS.</param>
    internal static string EndPointText(ServerEndpoint server, bool tls) =>
        !tls && IPAddress.TryParse(server.Host, out IPAddress? address)
            ? new IPEndPoint(address, server.Port).ToString()
            : new DnsEndPoint(server.Host, server.Port).ToString();

    /// <inheritdoc/>
    public int Locate(ReadOnlySpan<byte> key) => _points.Length == 0 ? 0 : LocateHash(Fnv1a.Hash(key, _keySeed));

    internal int LocateHash(uint hash)
    {
        int found = Array.BinarySearch(_points, hash);
        if (found < 0)
        {
            found = ~found;
            if (found == 0)
            {
                found = _points.Length - 1; // below every point: EnyimMemcachedCore takes the last one
            }
            else if (found == _points.Length)
            {
                found = 0;
            }
        }

        return _owners[found];
    }
}
