using System.Runtime.InteropServices;
using System.Text;
using Google.Protobuf;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The type header in front of every object payload (flags 0xC540 and 0xC541): one protobuf varint <c>key</c>, then,
/// for a name, the name's UTF-8 bytes. <c>key</c> odd: a registered alias, <c>key &gt;&gt; 1</c> (1-65535; 1-63 take one
/// byte). <c>key</c> even: a stable type name of <c>key &gt;&gt; 1</c> bytes (1-1024). The body follows to the end.
/// </summary>
/// <remarks>The varint is Google.Protobuf's (CodedOutputStream/CodedInputStream), like every varint of the package.</remarks>
internal static class TypeHeader
{
    public const int MaxNameBytes = 1024;

    public const int MaxAlias = 65535;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static byte[] ForName(string name)
    {
        var length = StrictUtf8.GetByteCount(name);
        if (length is 0 or > MaxNameBytes)
        {
            throw new ArgumentException($"A type name in a header has 1-{MaxNameBytes} UTF-8 bytes; '{name}' has {length}.", nameof(name));
        }

        var key = (uint)length << 1;
        var keySize = CodedOutputStream.ComputeUInt32Size(key);
        var header = new byte[keySize + length];
        WriteKey(header, key);
        StrictUtf8.GetBytes(name, header.AsSpan(keySize));
        return header;
    }

    public static byte[] ForAlias(int alias)
    {
        if (alias is < 1 or > MaxAlias)
        {
            throw new ArgumentOutOfRangeException(nameof(alias), alias, $"A type alias is 1-{MaxAlias}.");
        }

        var key = ((uint)alias << 1) | 1;
        var header = new byte[CodedOutputStream.ComputeUInt32Size(key)];
        WriteKey(header, key);
        return header;
    }

    /// <summary>Reads a header; returns its length. Exactly one of <paramref name="alias"/> (non-zero) and <paramref name="name"/> is set.</summary>
    public static int Read(ReadOnlyMemory<byte> payload, uint flags, Type? expected, out int alias, out string? name)
    {
        if (payload.IsEmpty)
        {
            TranscoderThrow.Malformed(flags, expected, "the payload is empty, an object payload starts with a type header");
        }

        if (!MemoryMarshal.TryGetArray(payload, out var segment))
        {
            segment = new ArraySegment<byte>(payload.ToArray());
        }

        // A varint of more than 5 bytes, or one cut short, makes Google.Protobuf throw InvalidProtocolBufferException,
        // which the transcoder reports as a malformed item.
        var input = new CodedInputStream(segment.Array!, segment.Offset, segment.Count);
        var key = input.ReadUInt32();
        var keyLength = (int)input.Position - segment.Offset;

        if ((key & 1) != 0)
        {
            alias = (int)(key >> 1);
            name = null;
            if (alias is < 1 or > MaxAlias)
            {
                TranscoderThrow.Malformed(flags, expected, $"type alias {alias} is outside 1-{MaxAlias}");
            }

            return keyLength;
        }

        var nameLength = key >> 1;
        if (nameLength is 0 or > MaxNameBytes)
        {
            TranscoderThrow.Malformed(flags, expected, $"a type name of {nameLength} bytes is outside 1-{MaxNameBytes}");
        }

        if (nameLength > segment.Count - keyLength)
        {
            TranscoderThrow.Malformed(flags, expected, $"the type name needs {nameLength} bytes, the payload has {segment.Count - keyLength} after the header key");
        }

        alias = 0;
        name = StrictUtf8.GetString(segment.AsSpan(keyLength, (int)nameLength));
        return keyLength + (int)nameLength;
    }

    private static void WriteKey(byte[] header, uint key)
    {
        using var output = new CodedOutputStream(header);
        output.WriteUInt32(key);
        output.Flush();
    }
}
