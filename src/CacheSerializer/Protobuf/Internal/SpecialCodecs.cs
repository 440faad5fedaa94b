using System.Runtime.CompilerServices;
using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Enums as their underlying integer in a varint, as protobuf-net writes them; any number reads back.</summary>
internal sealed class EnumCodec<TEnum> : ValueCodec<TEnum>
    where TEnum : struct, Enum
{
    private static readonly bool s_is64 = Unsafe.SizeOf<TEnum>() == 8;
    private static readonly bool s_unsigned = Type.GetTypeCode(Enum.GetUnderlyingType(typeof(TEnum)))
        is TypeCode.Byte or TypeCode.UInt16 or TypeCode.UInt32 or TypeCode.UInt64;

    public override WireType WireType => WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(TEnum value) => ToInt64(value) == 0;

    public override int Measure(TEnum value, int depth) => s_unsigned
        ? CodedOutputStream.ComputeUInt64Size((ulong)ToInt64(value))
        : CodedOutputStream.ComputeInt64Size(ToInt64(value));

    public override void Write(ref WriteContext ctx, TEnum value)
    {
        if (s_unsigned)
        {
            ctx.WriteUInt64((ulong)ToInt64(value));
        }
        else
        {
            ctx.WriteInt64(ToInt64(value));
        }
    }

    public override TEnum Read(ref ParseContext ctx, TEnum existing)
    {
        long raw = ctx.ReadInt64();
        return Unsafe.SizeOf<TEnum>() switch
        {
            1 => Unsafe.BitCast<byte, TEnum>((byte)raw),
            2 => Unsafe.BitCast<short, TEnum>((short)raw),
            4 => Unsafe.BitCast<int, TEnum>((int)raw),
            _ => Unsafe.BitCast<long, TEnum>(raw),
        };
    }

    // Widens through the underlying type's own signedness, so an int enum of -1 is written as int32 -1 (10 bytes).
    private static long ToInt64(TEnum value)
    {
        if (s_is64)
        {
            return Unsafe.BitCast<TEnum, long>(value);
        }

        return Unsafe.SizeOf<TEnum>() switch
        {
            1 => s_unsigned ? Unsafe.BitCast<TEnum, byte>(value) : Unsafe.BitCast<TEnum, sbyte>(value),
            2 => s_unsigned ? Unsafe.BitCast<TEnum, ushort>(value) : Unsafe.BitCast<TEnum, short>(value),
            _ => s_unsigned ? Unsafe.BitCast<TEnum, uint>(value) : Unsafe.BitCast<TEnum, int>(value),
        };
    }
}

/// <summary><see cref="Nullable{T}"/>: absent when null, written whenever it has a value (zero included), as protobuf-net does.</summary>
internal sealed class NullableCodec<T> : ValueCodec<T?>
    where T : struct
{
    private readonly ValueCodec<T> _inner;

    public NullableCodec(ValueCodec<T> inner) => _inner = inner;

    public override WireType WireType => _inner.WireType;
    public override bool IsPackable => _inner.IsPackable;
    public override bool IsDefault(T? value) => !value.HasValue;
    public override int Measure(T? value, int depth) => _inner.Measure(value.GetValueOrDefault(), depth);
    public override void Write(ref WriteContext ctx, T? value) => _inner.Write(ref ctx, value.GetValueOrDefault());
    public override T? Read(ref ParseContext ctx, T? existing) => _inner.Read(ref ctx, existing.GetValueOrDefault());
}

/// <summary>A type stored as its string form: parseable types (static <c>Parse(string)</c> + <c>ToString()</c>) and <see cref="Uri"/>.</summary>
internal sealed class TextCodec<T> : ValueCodec<T>
    where T : class
{
    private readonly Func<T, string> _format;
    private readonly Func<string, T> _parse;

    public TextCodec(Func<T, string> format, Func<string, T> parse)
    {
        _format = format;
        _parse = parse;
    }

    public override WireType WireType => WireType.LengthDelimited;
    public override bool IsDefault(T value) => value is null;
    public override int Measure(T value, int depth) => CodedOutputStream.ComputeStringSize(_format(value));
    public override void Write(ref WriteContext ctx, T value) => ctx.WriteString(_format(value));

    // A parse failure (FormatException and the like) is bad input; ProtoModel wraps it with the type's name.
    public override T Read(ref ParseContext ctx, T existing) => _parse(ctx.ReadString());
}

/// <summary>A type configured with a surrogate: converted to the surrogate (a contract) on write and back on read.</summary>
internal sealed class SurrogateCodec<T, TSurrogate> : ValueCodec<T>
{
    private readonly ValueCodec<TSurrogate> _inner;
    private readonly Func<T, TSurrogate> _toSurrogate;
    private readonly Func<TSurrogate, T> _fromSurrogate;

    public SurrogateCodec(ValueCodec<TSurrogate> inner, Func<T, TSurrogate> toSurrogate, Func<TSurrogate, T> fromSurrogate)
    {
        _inner = inner;
        _toSurrogate = toSurrogate;
        _fromSurrogate = fromSurrogate;
    }

    public override WireType WireType => _inner.WireType;
    public override bool IsDefault(T value) => value is null;
    public override int Measure(T value, int depth) => _inner.Measure(_toSurrogate(value), depth);
    public override void Write(ref WriteContext ctx, T value) => _inner.Write(ref ctx, _toSurrogate(value));
    public override T Read(ref ParseContext ctx, T existing) => _fromSurrogate(_inner.Read(ref ctx, default!));
}
