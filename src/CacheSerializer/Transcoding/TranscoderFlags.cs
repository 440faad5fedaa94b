namespace CacheSerializer.Transcoding;

/// <summary>
/// The one table of client flags the transcoder reads and writes. docs/format.md describes the same table; change both
/// together, and never change a value that has shipped: flags are stored with every cached item.
/// </summary>
/// <remarks>
/// <para>Shared with EnyimMemcachedCore's DefaultTranscoder: <c>0x0100 | TypeCode</c> for its primitives, 0xFA52 for raw
/// bytes, 0x0000 (read as a string) and 0x0101 (its BSON objects, read by the default foreign-item reader only).</para>
/// <para>Our own flags are <c>0xC5xx</c> (built in) and <c>0xC6xx</c> (application codecs), with a low byte in 0x20-0x7F.
/// DefaultTranscoder decodes any flag other than 0xFA52 by its low byte as a <see cref="TypeCode"/> (0-18); a low byte
/// of 0x20 or more is no TypeCode, so it rejects our entries loudly instead of misreading them.</para>
/// <para>The same reasoning places the compression bit at 0x0080: set on a shared flag (0x0112 becomes 0x0192) it also
/// turns the low byte into a non-TypeCode, so a DefaultTranscoder sharing the cache never reads compressed bytes as a
/// string or a number.</para>
/// </remarks>
internal static class TranscoderFlags
{
    /// <summary>Flag 0: written by other clients (incr/decr on a missing key, plain sets); read as a UTF-8 string.</summary>
    public const uint LegacyString = 0x0000;

    /// <summary>DefaultTranscoder's objects: BSON (Newtonsoft.Json.Bson). Not ours: read by the foreign-item reader.</summary>
    public const uint EnyimObject = 0x0101;

    /// <summary>DefaultTranscoder's legacy decimals (TypeCode.Decimal), also BSON. Not ours: read by the foreign-item reader.</summary>
    public const uint EnyimDecimal = 0x010F;

    /// <summary>null: empty payload (DefaultTranscoder's TypeCode.DBNull marker).</summary>
    public const uint Null = 0x0102;

    /// <summary>bool: one byte, 0 or 1.</summary>
    public const uint Boolean = 0x0103;

    /// <summary>char: UTF-16 code unit, 2 bytes little-endian.</summary>
    public const uint Char = 0x0104;

    /// <summary>sbyte: one byte, two's complement.</summary>
    public const uint SByte = 0x0105;

    /// <summary>byte: one byte.</summary>
    public const uint Byte = 0x0106;

    /// <summary>short: 2 bytes little-endian.</summary>
    public const uint Int16 = 0x0107;

    /// <summary>ushort: 2 bytes little-endian.</summary>
    public const uint UInt16 = 0x0108;

    /// <summary>int: 4 bytes little-endian.</summary>
    public const uint Int32 = 0x0109;

    /// <summary>uint: 4 bytes little-endian.</summary>
    public const uint UInt32 = 0x010A;

    /// <summary>long: 8 bytes little-endian.</summary>
    public const uint Int64 = 0x010B;

    /// <summary>ulong: 8 bytes little-endian.</summary>
    public const uint UInt64 = 0x010C;

    /// <summary>float: IEEE 754 binary32, 4 bytes little-endian.</summary>
    public const uint Single = 0x010D;

    /// <summary>double: IEEE 754 binary64, 8 bytes little-endian.</summary>
    public const uint Double = 0x010E;

    /// <summary>DateTime: <see cref="DateTime.ToBinary"/>, 8 bytes little-endian (ticks and Kind).</summary>
    public const uint DateTime = 0x0110;

    /// <summary>string: UTF-8, no length prefix, no BOM.</summary>
    public const uint String = 0x0112;

    /// <summary>byte[] and ArraySegment&lt;byte&gt;: the bytes as they are (DefaultTranscoder's RawDataFlag).</summary>
    public const uint RawBytes = 0xFA52;

    /// <summary>decimal: <see cref="decimal.GetBits(decimal)"/>, four 32-bit little-endian integers (lo, mid, hi, flags).</summary>
    public const uint Decimal = 0xC520;

    /// <summary>Guid: 16 bytes, <see cref="Guid.TryWriteBytes(Span{byte})"/> order (little-endian first three fields).</summary>
    public const uint Guid = 0xC521;

    /// <summary>TimeSpan: ticks, 8 bytes little-endian.</summary>
    public const uint TimeSpan = 0xC522;

    /// <summary>DateTimeOffset: clock ticks (8 bytes LE) then offset in minutes (2 bytes LE).</summary>
    public const uint DateTimeOffset = 0xC523;

    /// <summary>DateOnly: day number, 4 bytes little-endian.</summary>
    public const uint DateOnly = 0xC524;

    /// <summary>TimeOnly: ticks, 8 bytes little-endian.</summary>
    public const uint TimeOnly = 0xC525;

    /// <summary>Half: IEEE 754 binary16, 2 bytes little-endian.</summary>
    public const uint Half = 0xC526;

    /// <summary>Int128: 16 bytes little-endian two's complement.</summary>
    public const uint Int128 = 0xC527;

    /// <summary>UInt128: 16 bytes little-endian.</summary>
    public const uint UInt128 = 0xC528;

    /// <summary>Google.Protobuf message: type header, then the message's own protobuf encoding.</summary>
    public const uint ProtobufMessage = 0xC540;

    /// <summary>protobuf-net object: type header, then exactly the body protobuf-net's Serialize writes for the model.</summary>
    public const uint ProtobufNetObject = 0xC541;

    /// <summary>BinaryFormatter fallback: a BinaryFormatter stream, read through the allowlist binder.</summary>
    public const uint BinaryFormatter = 0xC542;

    /// <summary>Set when the payload is compressed (see docs/format.md, "Compression").</summary>
    public const uint CompressedBit = 0x0080;

    /// <summary>The lowest flag an application codec may use.</summary>
    public const uint UserFirst = 0xC620;

    /// <summary>The highest flag an application codec may use.</summary>
    public const uint UserLast = 0xC67F;

    /// <summary>
    /// Whether <paramref name="flags"/> (without the compression bit) is one of our own, 0xC5xx or 0xC6xx, which
    /// EnyimMemcachedCore's DefaultTranscoder never reads: compressing it by default breaks no Enyim reader. The shared
    /// flags (0x01xx, 0xFA52, 0x0000) keep DefaultTranscoder's bytes unless the application opts in.
    /// </summary>
    public static bool IsOwn(uint flags) => (flags & 0xFF00) is 0xC500 or 0xC600;
}
