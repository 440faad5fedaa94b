using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

// protobuf-net's default formats: integers as plain varints (so a negative int takes 10 bytes, like protobuf's int32),
// unsigned integers as unsigned varints, float as fixed32, double as fixed64, bool as a varint.

internal sealed class BoolCodec : ValueCodec<bool>
{
    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(bool value) => !value;
    public override int Measure(bool value, int depth) => 1;
    public override void Write(ref WriteContext ctx, bool value) => ctx.WriteBool(value);
    public override bool Read(ref ParseContext ctx, bool existing) => ctx.ReadBool();
}

internal sealed class Int32Codec : ValueCodec<int>
{
    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(int value) => value == 0;
    public override int Measure(int value, int depth) => CodedOutputStream.ComputeInt32Size(value);
    public override void Write(ref WriteContext ctx, int value) => ctx.WriteInt32(value);
    public override int Read(ref ParseContext ctx, int existing) => ctx.ReadInt32();
}

internal sealed class UInt32Codec : ValueCodec<uint>
{
    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(uint value) => value == 0;
    public override int Measure(uint value, int depth) => CodedOutputStream.ComputeUInt32Size(value);
    public override void Write(ref WriteContext ctx, uint value) => ctx.WriteUInt32(value);
    public override uint Read(ref ParseContext ctx, uint existing) => ctx.ReadUInt32();
}

internal sealed class Int64Codec : ValueCodec<long>
{
    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(long value) => value == 0;
    public override int Measure(long value, int depth) => CodedOutputStream.ComputeInt64Size(value);
    public override void Write(ref WriteContext ctx, long value) => ctx.WriteInt64(value);
    public override long Read(ref ParseContext ctx, long existing) => ctx.ReadInt64();
}

internal sealed class UInt64Codec : ValueCodec<ulong>
{
    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(ulong value) => value == 0;
    public override int Measure(ulong value, int depth) => CodedOutputStream.ComputeUInt64Size(value);
    public override void Write(ref WriteContext ctx, ulong value) => ctx.WriteUInt64(value);
    public override ulong Read(ref ParseContext ctx, ulong existing) => ctx.ReadUInt64();
}

internal sealed class SingleCodec : ValueCodec<float>
{
    public override WireType WireType => WireType.Fixed32;
    public override bool IsPackable => true;

    // Bitwise, so -0.0 is written like protobuf-net and Google (which compare bits) write it.
    public override bool IsDefault(float value) => BitConverter.SingleToInt32Bits(value) == 0;
    public override int Measure(float value, int depth) => 4;
    public override void Write(ref WriteContext ctx, float value) => ctx.WriteFloat(value);
    public override float Read(ref ParseContext ctx, float existing) => ctx.ReadFloat();
}

internal sealed class DoubleCodec : ValueCodec<double>
{
    public override WireType WireType => WireType.Fixed64;
    public override bool IsPackable => true;
    public override bool IsDefault(double value) => BitConverter.DoubleToInt64Bits(value) == 0;
    public override int Measure(double value, int depth) => 8;
    public override void Write(ref WriteContext ctx, double value) => ctx.WriteDouble(value);
    public override double Read(ref ParseContext ctx, double existing) => ctx.ReadDouble();
}

/// <summary>The small integers (sbyte, byte, short, ushort, char) ride on int32/uint32 varints; out-of-range input is bad input.</summary>
internal sealed class SmallIntegerCodec<T> : ValueCodec<T>
    where T : struct
{
    private readonly Func<T, int> _toInt;
    private readonly Func<int, T> _fromInt;
    private readonly bool _unsigned;

    public SmallIntegerCodec(Func<T, int> toInt, Func<int, T> fromInt, bool unsigned)
    {
        _toInt = toInt;
        _fromInt = fromInt;
        _unsigned = unsigned;
    }

    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(T value) => _toInt(value) == 0;

    public override int Measure(T value, int depth) => _unsigned
        ? CodedOutputStream.ComputeUInt32Size((uint)_toInt(value))
        : CodedOutputStream.ComputeInt32Size(_toInt(value));

    public override void Write(ref WriteContext ctx, T value)
    {
        if (_unsigned)
        {
            ctx.WriteUInt32((uint)_toInt(value));
        }
        else
        {
            ctx.WriteInt32(_toInt(value));
        }
    }

    public override T Read(ref ParseContext ctx, T existing) => _fromInt(_unsigned ? (int)ctx.ReadUInt32() : ctx.ReadInt32());
}

internal sealed class StringCodec : ValueCodec<string>
{
    public override WireType WireType => WireType.LengthDelimited;
    public override string MissingMapKey => string.Empty;

    // Only null is skipped: "" is written as an empty field, as protobuf-net writes it, so it comes back as "".
    public override bool IsDefault(string value) => value is null;
    public override int Measure(string value, int depth) => CodedOutputStream.ComputeStringSize(value);
    public override void Write(ref WriteContext ctx, string value) => ctx.WriteString(value);
    public override string Read(ref ParseContext ctx, string existing) => ctx.ReadString();
}

internal sealed class BytesCodec : ValueCodec<byte[]>
{
    public override WireType WireType => WireType.LengthDelimited;
    public override byte[] MissingMapKey => [];
    public override bool IsDefault(byte[] value) => value is null;
    public override int Measure(byte[] value, int depth) => CodedOutputStream.ComputeLengthSize(value.Length) + value.Length;

    // UnsafeWrap shares the caller's array for the duration of the write: no copy.
    public override void Write(ref WriteContext ctx, byte[] value) => ctx.WriteBytes(UnsafeByteOperations.UnsafeWrap(value));

    public override byte[] Read(ref ParseContext ctx, byte[] existing)
    {
        // ReadBytes copies into a fresh array of exactly the field's length (checked against the input first): take it over.
        var bytes = ctx.ReadBytes();
        return System.Runtime.InteropServices.MemoryMarshal.TryGetArray(bytes.Memory, out var segment)
            && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : bytes.ToByteArray();
    }
}
