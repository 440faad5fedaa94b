using System.Security.Cryptography;
using System.Text;

namespace CacheSerializer.Memcached.Internal;

/// <summary>A .NET string key turned into the bytes memcached stores it under, and the form they travel in.</summary>
/// <remarks>
/// The rule (docs/client.md, "Keys"): the key is <c>KeyPrefix + key</c> as UTF-8. If those bytes are printable ASCII
/// without spaces (0x21-0x7E) and at most 250 of them (memcached's KEY_MAX_LENGTH), they are sent as they are, so
/// other clients see the same key. Otherwise they are sent in the meta protocol's base64 key mode (flag <c>b</c>);
/// memcached 1.6.18 checks the 250-byte limit on the encoded token, so this carries up to 186 binary bytes. Longer
/// keys (and the empty key, and strings with unpaired surrogates, which have no UTF-8 form) are replaced by a marker
/// byte and their SHA-256: 0xFF for UTF-8 bytes, 0xFE for UTF-16 code units. Neither byte occurs in UTF-8, so a hashed
/// key can never equal the stored form of another string.
/// </remarks>
internal readonly struct MemcachedKey
{
    internal const int MaxPlainLength = 250;
    internal const int MaxBase64BinaryLength = 186;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private MemcachedKey(string original, byte[] binary, byte[] wire, bool isBase64)
    {
        Original = original;
        Binary = binary;
        Wire = wire;
        IsBase64 = isBase64;
    }

    /// <summary>Gets the caller's key, without the prefix.</summary>
    internal string Original { get; }

    /// <summary>Gets the key as memcached stores it; ketama hashes these bytes.</summary>
    internal byte[] Binary { get; }

    /// <summary>Gets the key token as written on the command line.</summary>
    internal byte[] Wire { get; }

    /// <summary>Gets a value indicating whether <see cref="Wire"/> is base64 and the command needs the <c>b</c> flag.</summary>
    internal bool IsBase64 { get; }

    internal static MemcachedKey Create(string prefix, string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        string full = prefix.Length == 0 ? key : string.Concat(prefix, key);
        byte[] binary;
        try
        {
            binary = StrictUtf8.GetBytes(full);
        }
        catch (EncoderFallbackException)
        {
            binary = Hashed(0xFE, System.Runtime.InteropServices.MemoryMarshal.AsBytes(full.AsSpan()));
            return Base64(key, binary);
        }

        if (binary.Length == 0)
        {
            return Base64(key, Hashed(0xFF, binary));
        }

        if (binary.Length <= MaxPlainLength && IsPlain(binary))
        {
            return new MemcachedKey(key, binary, binary, isBase64: false);
        }

        if (binary.Length <= MaxBase64BinaryLength)
        {
            return Base64(key, binary);
        }

        return Base64(key, Hashed(0xFF, binary));
    }

    internal static bool IsPlain(ReadOnlySpan<byte> bytes)
    {
        foreach (byte b in bytes)
        {
            if (b is < 0x21 or > 0x7E)
            {
                return false;
            }
        }

        return true;
    }

    public override string ToString() => Original;

    private static MemcachedKey Base64(string original, byte[] binary)
    {
        byte[] wire = new byte[System.Buffers.Text.Base64.GetMaxEncodedToUtf8Length(binary.Length)];
        System.Buffers.Text.Base64.EncodeToUtf8(binary, wire, out _, out int written);
        if (written != wire.Length)
        {
            Array.Resize(ref wire, written);
        }

        return new MemcachedKey(original, binary, wire, isBase64: true);
    }

    private static byte[] Hashed(byte marker, ReadOnlySpan<byte> data)
    {
        byte[] result = new byte[1 + SHA256.HashSizeInBytes];
        result[0] = marker;
        SHA256.HashData(data, result.AsSpan(1));
        return result;
    }
}
