using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace CacheSerializer.Transcoding.Codecs.Primitive;

/// <summary>
/// A binary number as its little-endian bytes: a two's complement integer (sbyte to Int128, unsigned alike), an IEEE 754
/// float (Half, float, double; NaN payloads and -0.0 kept) or a char's UTF-16 code unit (a lone surrogate kept).
/// DefaultTranscoder's layouts under 0x0104 to 0x010E; ours for Half, Int128 and UInt128 (docs/format.md).
/// </summary>
/// <remarks>
/// A single binary number's little-endian bytes are its bytes in memory on a little-endian machine, and their reverse on
/// a big-endian one, so one copy serves every size. <see cref="IBinaryNumber{TSelf}"/> keeps out what that does not hold
/// for: decimal (its memory is not its <see cref="decimal.GetBits(decimal)"/> order), Guid, bool and the clock types.
/// </remarks>
internal readonly struct LittleEndian<T> : IFixedSizeLayout<T>
    where T : unmanaged, IBinaryNumber<T>
{
    public static int Size => Unsafe.SizeOf<T>();

    public static void Write(Span<byte> destination, T value)
    {
        MemoryMarshal.Write(destination, in value);
        if (!BitConverter.IsLittleEndian)
        {
            destination[..Size].Reverse();
        }
    }

    // The big-endian path is a method of its own: with its reversal inline, the runtime would not inline Read into the
    // codec's ReadValue.
    public static T Read(ReadOnlySpan<byte> source) => BitConverter.IsLittleEndian ? MemoryMarshal.Read<T>(source) : ReadReversed(source);

    private static T ReadReversed(ReadOnlySpan<byte> source)
    {
        T value = default;
        Span<byte> bytes = MemoryMarshal.AsBytes(new Span<T>(ref value));
        source[..Size].CopyTo(bytes);
        bytes.Reverse();
        return value;
    }
}

/// <summary>bool: one byte, 1 for true and 0 for false, DefaultTranscoder's layout under 0x0103.</summary>
/// <remarks><see cref="BitConverter"/> never writes another value, so any other byte is a malformed item.</remarks>
internal readonly struct BooleanLayout : IFixedSizeLayout<bool>
{
    public static int Size => 1;

    public static void Write(Span<byte> destination, bool value) => destination[0] = value ? (byte)1 : (byte)0;

    public static bool Read(ReadOnlySpan<byte> source) => source[0] switch
    {
        0 => false,
        1 => true,
        _ => ThrowHelper.ThrowMalformed<bool>(TranscoderFlags.Boolean, typeof(bool), $"a bool is stored as 0 or 1, not {source[0]}"),
    };
}

/// <summary>Guid: 16 bytes in <see cref="Guid.TryWriteBytes(Span{byte})"/> order: the first three fields little-endian, then 8 bytes as they are (flag 0xC521).</summary>
internal readonly struct GuidLayout : IFixedSizeLayout<Guid>
{
    public static int Size => 16;

    public static void Write(Span<byte> destination, Guid value) => _ = value.TryWriteBytes(destination);

    public static Guid Read(ReadOnlySpan<byte> source) => new(source);
}

/// <summary>
/// decimal: <see cref="decimal.GetBits(decimal)"/> as four 32-bit little-endian integers (lo, mid, hi, flags), so the
/// scale is kept (1.10m stays 1.10m). Flag 0xC520: DefaultTranscoder has no working decimal layout (it tries BSON).
/// </summary>
internal readonly struct DecimalLayout : IFixedSizeLayout<decimal>
{
    public static int Size => 16;

    public static void Write(Span<byte> destination, decimal value)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        for (int i = 0; i < 4; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(destination[(i * 4)..], bits[i]);
        }
    }

    public static decimal Read(ReadOnlySpan<byte> source)
    {
        Span<int> bits = stackalloc int[4];
        for (int i = 0; i < 4; i++)
        {
            bits[i] = BinaryPrimitives.ReadInt32LittleEndian(source[(i * 4)..]);
        }

        // The decimal constructor rejects a flags word with a scale above 28 or stray bits (ArgumentException),
        // which the transcoder reports as a malformed item.
        return new decimal(bits);
    }
}
