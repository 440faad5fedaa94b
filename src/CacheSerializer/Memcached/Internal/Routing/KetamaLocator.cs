using System.Buffers.Binary;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using CacheSerializer.Memcached.Internal.Configuration;

namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>Maps a key to a server by libmemcached's weighted ketama, so the same server list places keys identically.</summary>
/// <remarks>
/// The continuum, as libmemcached's <c>update_continuum</c> builds it in weighted mode (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED,
/// which also selects MD5 for keys): each server gets <c>floor(weight / totalWeight * 160 / 4 * serverCount + 1e-10) * 4</c>
/// points, computed in single precision as libmemcached does; for each i the MD5 of <c>"host-i"</c> (<c>"host:port-i"</c>
/// when the port is not 11211) gives four points, one per little-endian 32-bit quarter of the digest. A key hashes to the
/// first four bytes of its MD5, little-endian, and belongs to the first point at or after that value, wrapping to the first.
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Security", "CA5351:Do Not Use Broken Cryptographic Algorithms",
    Justification = "MD5 is ketama's placement hash (libmemcached compatibility), not a security measure.")]
internal sealed class KetamaLocator : IKeyLocator
{
    private const int PointsPerServer = 160;
    private const int PointsPerHash = 4;

    private readonly uint[] _points;
    private readonly int[] _owners;
    private readonly bool _singleServer;

    internal KetamaLocator(IReadOnlyList<ServerEndpoint> servers)
    {
        ArgumentNullException.ThrowIfNull(servers);
        _singleServer = servers.Count == 1;
        long totalWeight = 0;
        foreach (ServerEndpoint server in servers)
        {
            totalWeight += server.Weight;
        }

        var points = new List<(uint Value, int Owner)>(servers.Count * PointsPerServer);
        Span<byte> digest = stackalloc byte[MD5.HashSizeInBytes];
        for (int index = 0; index < servers.Count; index++)
        {
            ServerEndpoint server = servers[index];
            float pct = (float)server.Weight / (float)totalWeight;
            int perServer = (int)(Math.Floor((float)((float)((float)(pct * PointsPerServer) / 4f) * (float)servers.Count) + 0.0000000001F) * 4);
            for (int i = 0; i < perServer / PointsPerHash; i++)
            {
                string nodeKey = server.Port == ServerEndpoint.DefaultPort
                    ? string.Create(CultureInfo.InvariantCulture, $"{server.Host}-{i}")
                    : string.Create(CultureInfo.InvariantCulture, $"{server.Host}:{server.Port}-{i}");
                MD5.HashData(Encoding.ASCII.GetBytes(nodeKey), digest);
                for (int quarter = 0; quarter < PointsPerHash; quarter++)
                {
                    points.Add((BinaryPrimitives.ReadUInt32LittleEndian(digest.Slice(quarter * 4, 4)), index));
                }
            }
        }

        // Ties keep the server order, which is what a stable sort of libmemcached's input gives in practice.
        points.Sort(static (a, b) => a.Value != b.Value ? a.Value.CompareTo(b.Value) : a.Owner.CompareTo(b.Owner));
        _points = new uint[points.Count];
        _owners = new int[points.Count];
        for (int i = 0; i < points.Count; i++)
        {
            _points[i] = points[i].Value;
            _owners[i] = points[i].Owner;
        }
    }

    internal int PointCount => _points.Length;

    /// <summary>The key hash libmemcached uses with MD5: the digest's first four bytes as a little-endian number.</summary>
    internal static uint HashKey(ReadOnlySpan<byte> key)
    {
        Span<byte> digest = stackalloc byte[MD5.HashSizeInBytes];
        MD5.HashData(key, digest);
        return BinaryPrimitives.ReadUInt32LittleEndian(digest);
    }

    /// <inheritdoc/>
    public int Locate(ReadOnlySpan<byte> key)
    {
        if (_owners.Length == 0 || _singleServer)
        {
            return 0;
        }

        return LocateHash(HashKey(key));
    }

    internal int LocateHash(uint hash)
    {
        int left = 0;
        int right = _points.Length;
        while (left < right)
        {
            int middle = left + ((right - left) / 2);
            if (_points[middle] < hash)
            {
                left = middle + 1;
            }
            else
            {
                right = middle;
            }
        }

        return _owners[right == _points.Length ? 0 : right];
    }
}
