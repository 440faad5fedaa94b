using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text;
using Google.Protobuf;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The type header in front of every object payload (flags 0xC540 and 0xC541): one protobuf varint <c>key</c>, then
/// what the key announces, then the 4-byte contract fingerprint. <c>key</c> odd: a registered alias, <c>key &gt;&gt; 1</c>
/// (1-65535; 1-63 take one byte). <c>key</c> even and not 0: a stable type name of <c>key &gt;&gt; 1</c> UTF-8 bytes
/// (1-1024). <c>key</c> 0: the 32-bit hash of the stable type name, 4 bytes little-endian (<see cref="StableTypeName.Hash"/>).
/// Then the fingerprint of the contract the body was written under, 4 bytes little-endian (<see cref="ContractFingerprint"/>).
/// The body follows to the end.
/// </summary>
/// <remarks>
/// Google.Protobuf messages are written with their name, protobuf-net objects with the hash (9 bytes in all); both read
/// every form. The varint is Google.Protobuf's (CodedOutputStream/CodedInputStream), like every varint of the package.
/// </remarks>
internal static class TypeHeader
{
    public const int MaxNameBytes = 1024;

    public const int MaxAlias = 65535;

    private const int HashLength = 4;

    private const int FingerprintLength = 4;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static byte[] ForName(string name, uint fingerprint)
    {
        int length = StrictUtf8.GetByteCount(name);
        if (length is 0 or > MaxNameBytes)
        {
            throw new ArgumentException($"A type name in a header has 1-{MaxNameBytes} UTF-8 bytes; '{name}' has {length}.", nameof(name));
        }

        uint key = (uint)length << 1;
        int keySize = CodedOutputStream.ComputeUInt32Size(key);
        byte[] header = new byte[keySize + length + FingerprintLength];
        WriteKey(header, key);
        StrictUtf8.GetBytes(name, header.AsSpan(keySize));
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(keySize + length), fingerprint);
        return header;
    }

    public static byte[] ForAlias(int alias, uint fingerprint)
    {
        if (alias is < 1 or > MaxAlias)
        {
            throw new ArgumentOutOfRangeException(nameof(alias), alias, $"A type alias is 1-{MaxAlias}.");
        }

        uint key = ((uint)alias << 1) | 1;
        int keySize = CodedOutputStream.ComputeUInt32Size(key);
        byte[] header = new byte[keySize + FingerprintLength];
        WriteKey(header, key);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(keySize), fingerprint);
        return header;
    }

    public static byte[] ForHash(uint hash, uint fingerprint)
    {
        byte[] header = new byte[1 + HashLength + FingerprintLength];
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(1), hash);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(1 + HashLength), fingerprint);
        return header;
    }

    /// <summary>Reads a header; returns its length, what it names and the fingerprint of the contract the body was written under.</summary>
    public static int Read(ReadOnlyMemory<byte> payload, uint flags, Type? expected, out TypeKey key, out uint fingerprint)
    {
        if (payload.IsEmpty)
        {
            ThrowHelper.ThrowMalformed(flags, expected, "the payload is empty, an object payload starts with a type header");
        }

        if (!MemoryMarshal.TryGetArray(payload, out ArraySegment<byte> segment))
        {
            segment = new ArraySegment<byte>(payload.ToArray());
        }

        // A varint of more than 5 bytes, or one cut short, makes Google.Protobuf throw InvalidProtocolBufferException,
        // which the transcoder reports as a malformed item.
        var input = new CodedInputStream(segment.Array!, segment.Offset, segment.Count);
        uint raw = input.ReadUInt32();
        int keyLength = (int)input.Position - segment.Offset;

        if ((raw & 1) != 0)
        {
            int alias = (int)(raw >> 1);
            if (alias is < 1 or > MaxAlias)
            {
                ThrowHelper.ThrowMalformed(flags, expected, $"type alias {alias} is outside 1-{MaxAlias}");
            }

            key = TypeKey.ForAlias(alias);
            fingerprint = ReadFingerprint(segment, keyLength, flags, expected);
            return keyLength + FingerprintLength;
        }

        if (raw == 0)
        {
            if (segment.Count - keyLength < HashLength)
            {
                ThrowHelper.ThrowMalformed(flags, expected, $"a type hash needs {HashLength} bytes, the payload has {segment.Count - keyLength} after the header key");
            }

            key = TypeKey.ForHash(BinaryPrimitives.ReadUInt32LittleEndian(segment.AsSpan(keyLength, HashLength)));
            fingerprint = ReadFingerprint(segment, keyLength + HashLength, flags, expected);
            return keyLength + HashLength + FingerprintLength;
        }

        uint nameLength = raw >> 1;
        if (nameLength > MaxNameBytes)
        {
            ThrowHelper.ThrowMalformed(flags, expected, $"a type name of {nameLength} bytes is outside 1-{MaxNameBytes}");
        }

        if (nameLength > segment.Count - keyLength)
        {
            ThrowHelper.ThrowMalformed(flags, expected, $"the type name needs {nameLength} bytes, the payload has {segment.Count - keyLength} after the header key");
        }

        key = TypeKey.ForName(StrictUtf8.GetString(segment.AsSpan(keyLength, (int)nameLength)));
        fingerprint = ReadFingerprint(segment, keyLength + (int)nameLength, flags, expected);
        return keyLength + (int)nameLength + FingerprintLength;
    }

    private static uint ReadFingerprint(ArraySegment<byte> segment, int offset, uint flags, Type? expected)
    {
        if (segment.Count - offset < FingerprintLength)
        {
            ThrowHelper.ThrowMalformed(flags, expected, $"the contract fingerprint needs {FingerprintLength} bytes, the payload has {segment.Count - offset} after the type");
        }

        return BinaryPrimitives.ReadUInt32LittleEndian(segment.AsSpan(offset, FingerprintLength));
    }

    private static void WriteKey(byte[] header, uint key)
    {
        using var output = new CodedOutputStream(header);
        output.WriteUInt32(key);
        output.Flush();
    }
}
