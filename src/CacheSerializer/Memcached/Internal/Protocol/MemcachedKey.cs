using System.Security.Cryptography;
using System.Text;

namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>A .NET string key turned into the bytes memcached stores it under, and the form they travel in.</summary>
/// <remarks>
/// The rule (docs/client.md, "Keys"): the key is <c>KeyPrefix + key</c> as UTF-8. If those bytes are printable ASCII
/// without spaces (0x21-0x7E) and at most 250 of them (memcached's KEY_MAX_LENGTH), they are sent as they are, so
/// other clients see the same key. Otherwise they are sent in the meta protocol's base64 key mode (flag <c>b</c>);
/// memcached 1.6.18 checks the 250-byte limit on the encoded token, so this carries up to 186 binary bytes. Longer
/// keys (and the empty key, and strings with unpaired surrogates, which have no UTF-8 form) are replaced by a marker
/// byte and their SHA-256: 0xFF for UTF-8 bytes, 0xFE for UTF-16 code units. Neither byte occurs in UTF-8, so a hashed
/// key can never equal the stored form of another string.
/// A plain key (the common case) is kept as its two strings and written straight from them: it allocates nothing,
/// not even the concatenation of prefix and key; only the other keys hold their bytes.
/// </remarks>
internal readonly struct MemcachedKey
{
    internal const int MaxPlainLength = 250;
    internal const int MaxBase64BinaryLength = 186;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // Plain: the prefix (a string), with Original, is the key (both printable ASCII, at most 250 chars in all); the
    // arrays are null. Otherwise: the stored bytes and the base64 token; and for a build copy's key, the stored bytes of
    // the key it is a copy of (a byte[]), which place it (on that key's server). One field for both, as no key is both:
    // every key a request or a batch holds is one reference smaller.
    private readonly object? _prefixOrPlacement;
    private readonly byte[]? _binary;
    private readonly byte[]? _wire;

    private MemcachedKey(string original, string plainPrefix)
    {
        Original = original;
        _prefixOrPlacement = plainPrefix;
    }

    private MemcachedKey(string original, byte[] binary, byte[] wire, byte[]? placedBy = null)
    {
        Original = original;
        _binary = binary;
        _wire = wire;
        _prefixOrPlacement = placedBy;
        IsBase64 = true;
    }

    /// <summary>Gets the caller's key, without the prefix.</summary>
    internal string Original { get; }

    /// <summary>Gets a value indicating whether the wire token is base64 and the command needs the <c>b</c> flag.</summary>
    internal bool IsBase64 { get; }

    /// <summary>Gets the length of the key token as written on the command line.</summary>
    internal int WireLength => _wire is { } wire ? wire.Length : PlainPrefix.Length + Original.Length;

    /// <summary>Gets the key as memcached stores it (a new array for a plain key: tests and diagnostics; the client uses
    /// <see cref="GetBinary"/>).</summary>
    internal byte[] Binary => _binary ?? PlainBytes();

    /// <summary>Gets the key token as written on the command line (a new array for a plain key, as <see cref="Binary"/>).</summary>
    internal byte[] Wire => _wire ?? PlainBytes();

    internal static MemcachedKey Create(string prefix, string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        if (prefix.Length + key.Length is > 0 and <= MaxPlainLength && IsPlain(prefix) && IsPlain(key))
        {
            return new MemcachedKey(key, prefix); // printable ASCII: its UTF-8 bytes are its chars
        }

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

        if (binary.Length <= MaxBase64BinaryLength)
        {
            return Base64(key, binary);
        }

        return Base64(key, Hashed(0xFF, binary));
    }

    /// <summary>
    /// The key of another build's copy of this key's value (docs/client.md, "Rolling deploys"): 0xFD, the key's stored
    /// bytes, then <paramref name="build"/>. No string maps to it (0xFD never occurs in UTF-8, as 0xFE and 0xFF do not);
    /// it travels in base64 mode, hashed like any long key when it is longer than that mode carries. It is placed by
    /// this key, never by itself: a copy lives on its key's server.
    /// </summary>
    internal MemcachedKey CopyFor(uint build)
    {
        Span<byte> suffix = stackalloc byte[sizeof(uint)];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(suffix, build);
        return Sibling(0xFD, suffix);
    }

    /// <summary>
    /// The key of this key's get-or-create lease in the migration phase from EnyimMemcachedCore (docs/client.md, "In the
    /// migration phase"): 0xFC and the key's stored bytes, formed and placed as <see cref="CopyFor"/>'s keys are (0xFC
    /// never occurs in UTF-8 either), so no EnyimMemcachedCore application ever reads it.
    /// </summary>
    internal MemcachedKey LeaseFor() => Sibling(0xFC, []);

    /// <summary>A key no string maps to, beside this one: <paramref name="marker"/>, this key's stored bytes, then
    /// <paramref name="suffix"/>, placed by this key (on its server).</summary>
    private MemcachedKey Sibling(byte marker, ReadOnlySpan<byte> suffix)
    {
        Span<byte> scratch = stackalloc byte[MaxPlainLength];
        ReadOnlySpan<byte> stored = GetBinary(scratch);
        byte[] binary = new byte[1 + stored.Length + suffix.Length];
        binary[0] = marker;
        stored.CopyTo(binary.AsSpan(1));
        suffix.CopyTo(binary.AsSpan(1 + stored.Length));
        MemcachedKey sibling = Base64(Original, binary.Length <= MaxBase64BinaryLength ? binary : Hashed(marker, binary));
        return new MemcachedKey(Original, sibling._binary!, sibling._wire!, PlacedBy ?? stored.ToArray());
    }

    /// <summary>The bytes that place the key on a server: its stored bytes, or for a build copy those of the key it is a
    /// copy of; written into <paramref name="scratch"/> (at least <see cref="MaxPlainLength"/> bytes) for a plain key.</summary>
    internal ReadOnlySpan<byte> GetPlacement(Span<byte> scratch) => PlacedBy ?? GetBinary(scratch);

    /// <summary>The key as memcached stores it (what ketama hashes): written into <paramref name="scratch"/> (at least
    /// <see cref="MaxPlainLength"/> bytes) for a plain key, else the key's own bytes.</summary>
    internal ReadOnlySpan<byte> GetBinary(Span<byte> scratch) => _binary ?? scratch[..WritePlain(scratch)];

    /// <summary>Writes the key token into <paramref name="destination"/>; returns its length (<see cref="WireLength"/>).</summary>
    internal int WriteWire(Span<byte> destination)
    {
        if (_wire is { } wire)
        {
            wire.CopyTo(destination);
            return wire.Length;
        }

        return WritePlain(destination);
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

    /// <summary>Gets a plain key's prefix (only a plain key has one: its arrays are null).</summary>
    private string PlainPrefix => (string)_prefixOrPlacement!;

    /// <summary>Gets a build copy's placement bytes (null for any other key).</summary>
    private byte[]? PlacedBy => _prefixOrPlacement as byte[];

    private static bool IsPlain(string text) => !text.AsSpan().ContainsAnyExceptInRange((char)0x21, (char)0x7E);

    private int WritePlain(Span<byte> destination)
    {
        string prefix = PlainPrefix;
        Ascii.FromUtf16(prefix, destination, out int written);
        Ascii.FromUtf16(Original, destination[written..], out int rest);
        return written + rest;
    }

    private byte[] PlainBytes()
    {
        byte[] bytes = new byte[WireLength];
        WritePlain(bytes);
        return bytes;
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

        return new MemcachedKey(original, binary, wire);
    }

    private static byte[] Hashed(byte marker, ReadOnlySpan<byte> data)
    {
        byte[] result = new byte[1 + SHA256.HashSizeInBytes];
        result[0] = marker;
        SHA256.HashData(data, result.AsSpan(1));
        return result;
    }
}
