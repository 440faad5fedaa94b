namespace CacheSerializer;

/// <summary>FNV-1a, 32 bits: the hash of a stable type name in an object's header (docs/format.md) and EnyimMemcachedCore's
/// key placement (docs/client.md, "Key placement"). Stable across processes, platforms and .NET versions, unlike
/// <see cref="string.GetHashCode()"/>.</summary>
internal static class Fnv1a
{
    /// <summary>FNV-1a's 32-bit offset basis, the usual start of a hash.</summary>
    internal const uint OffsetBasis = 2166136261;

    private const uint Prime = 16777619;

    /// <summary>Hashes <paramref name="data"/>, starting from <paramref name="seed"/>.</summary>
    internal static uint Hash(ReadOnlySpan<byte> data, uint seed = OffsetBasis)
    {
        uint hash = seed;
        foreach (byte b in data)
        {
            hash = (hash ^ b) * Prime;
        }

        return hash;
    }
}
