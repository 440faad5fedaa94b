using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

// The hot scalar formats of ScalarMember: the same encodings as the matching ValueCodecs in ScalarCodecs.cs.

internal struct BoolFormat : IScalarFormat<bool>
{
    public static WireType WireType => WireType.Varint;
    public static bool IsDefault(bool value) => !value;
    public static int Measure(bool value) => 1;
    public static void Write(ref WriteContext ctx, bool value) => ctx.WriteBool(value);
    public static bool Read(ref ParseContext ctx) => ctx.ReadBool();
}

internal struct Int32Format : IScalarFormat<int>
{
    public static WireType WireType => WireType.Varint;
    public static bool IsDefault(int value) => value == 0;
    public static int Measure(int value) => CodedOutputStream.ComputeInt32Size(value);
    public static void Write(ref WriteContext ctx, int value) => ctx.WriteInt32(value);
    public static int Read(ref ParseContext ctx) => ctx.ReadInt32();
}

internal struct UInt32Format : IScalarFormat<uint>
{
    public static WireType WireType => WireType.Varint;
    public static bool IsDefault(uint value) => value == 0;
    public static int Measure(uint value) => CodedOutputStream.ComputeUInt32Size(value);
    public static void Write(ref WriteContext ctx, uint value) => ctx.WriteUInt32(value);
    public static uint Read(ref ParseContext ctx) => ctx.ReadUInt32();
}

internal struct Int64Format : IScalarFormat<long>
{
    public static WireType WireType => WireType.Varint;
    public static bool IsDefault(long value) => value == 0;
    public static int Measure(long value) => CodedOutputStream.ComputeInt64Size(value);
    public static void Write(ref WriteContext ctx, long value) => ctx.WriteInt64(value);
    public static long Read(ref ParseContext ctx) => ctx.ReadInt64();
}

internal struct UInt64Format : IScalarFormat<ulong>
{
    public static WireType WireType => WireType.Varint;
    public static bool IsDefault(ulong value) => value == 0;
    public static int Measure(ulong value) => CodedOutputStream.ComputeUInt64Size(value);
    public static void Write(ref WriteContext ctx, ulong value) => ctx.WriteUInt64(value);
    public static ulong Read(ref ParseContext ctx) => ctx.ReadUInt64();
}

internal struct SingleFormat : IScalarFormat<float>
{
    public static WireType WireType => WireType.Fixed32;
    public static bool IsDefault(float value) => BitConverter.SingleToInt32Bits(value) == 0;
    public static int Measure(float value) => 4;
    public static void Write(ref WriteContext ctx, float value) => ctx.WriteFloat(value);
    public static float Read(ref ParseContext ctx) => ctx.ReadFloat();
}

internal struct DoubleFormat : IScalarFormat<double>
{
    public static WireType WireType => WireType.Fixed64;
    public static bool IsDefault(double value) => BitConverter.DoubleToInt64Bits(value) == 0;
    public static int Measure(double value) => 8;
    public static void Write(ref WriteContext ctx, double value) => ctx.WriteDouble(value);
    public static double Read(ref ParseContext ctx) => ctx.ReadDouble();
}

internal struct StringFormat : IScalarFormat<string>
{
    public static WireType WireType => WireType.LengthDelimited;

    // Only null is skipped: "" is written as an empty field, as protobuf-net writes it, so it comes back as "".
    public static bool IsDefault(string value) => value is null;
    public static int Measure(string value) => CodedOutputStream.ComputeStringSize(value);
    public static void Write(ref WriteContext ctx, string value) => ctx.WriteString(value);
    public static string Read(ref ParseContext ctx) => ctx.ReadString();
}
