using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// The hot scalar formats as static abstract members: a <see cref="ScalarMember{TOwner, T, TFormat}"/> closed over a
/// struct format is specialized by the JIT, so writing or reading an int or a string member makes no virtual call.
/// </summary>
internal interface IScalarFormat<T>
{
    static abstract WireType WireType { get; }

    static abstract bool IsDefault(T value);

    static abstract int Measure(T value);

    static abstract void Write(ref WriteContext ctx, T value);

    static abstract T Read(ref ParseContext ctx);
}

/// <summary>A member holding one scalar of a hot format (bool, integers, float, double, string).</summary>
/// <remarks>Same encoding as <see cref="SingleMember{TOwner, TValue}"/> with the matching <see cref="ValueCodec{T}"/>.</remarks>
internal sealed class ScalarMember<TOwner, T, TFormat> : MemberCodec<TOwner>
    where TFormat : struct, IScalarFormat<T>
{
    private readonly Func<TOwner, T> _get;
    private readonly Setter<TOwner, T> _set;
    private readonly uint _tag;
    private readonly int _tagSize;

    public ScalarMember(int fieldNumber, string name, Func<TOwner, T> get, Setter<TOwner, T> set)
        : base(fieldNumber, name)
    {
        _get = get;
        _set = set;
        _tag = MakeTag(fieldNumber, TFormat.WireType);
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);
    }

    public override int Measure(TOwner owner, int depth)
    {
        var value = _get(owner);
        return TFormat.IsDefault(value) ? 0 : _tagSize + TFormat.Measure(value);
    }

    public override void Write(ref WriteContext ctx, TOwner owner)
    {
        var value = _get(owner);
        if (!TFormat.IsDefault(value))
        {
            ctx.WriteTag(_tag);
            TFormat.Write(ref ctx, value);
        }
    }

    public override uint Read(ref ParseContext ctx, uint tag, ref TOwner owner)
    {
        if (tag == _tag)
        {
            _set(ref owner, TFormat.Read(ref ctx));
        }
        else
        {
            FieldSkipper.Skip(ref ctx, tag);
        }

        return ctx.ReadTag();
    }

    public override void Copy(TOwner from, ref TOwner to) => _set(ref to, _get(from));
}

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
