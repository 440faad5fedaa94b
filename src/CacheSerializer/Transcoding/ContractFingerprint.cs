using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The 32-bit fingerprint an object item's header carries: the first four bytes, little-endian, of the SHA-256 of its
/// contract's canonical description (UTF-8). Stable across processes, machines and runs; computed once per type.
/// </summary>
internal static class ContractFingerprint
{
    public static uint Of(string description)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes(description), hash);
        return BinaryPrimitives.ReadUInt32LittleEndian(hash);
    }
}
