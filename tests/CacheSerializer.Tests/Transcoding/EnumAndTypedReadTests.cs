namespace CacheSerializer.Tests.Transcoding;

public class EnumAndTypedReadTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    public enum Color
    {
        Red,
        Green,
        Blue = 7,
    }

    public enum Tiny : byte
    {
        Max = 255,
    }

    public enum Signed : sbyte
    {
        Negative = -5,
    }

    public enum Short : short
    {
        Low = short.MinValue,
    }

    public enum Big : long
    {
        Min = long.MinValue,
    }

    [Flags]
    public enum Wide : ulong
    {
        None = 0,
        Top = 1UL << 63,
        Bottom = 1,
    }

    public static IEnumerable<object[]> Enums =>
    [
        [Color.Blue, 0x0109u],
        [(Color)42, 0x0109u],
        [Tiny.Max, 0x0106u],
        [Signed.Negative, 0x0105u],
        [Short.Low, 0x0107u],
        [Big.Min, 0x010Bu],
        [Wide.Top | Wide.Bottom, 0x010Cu],
    ];

    [Theory]
    [MemberData(nameof(Enums))]
    public void Serialize_Enum_IsStoredAsItsUnderlyingInteger(Enum value, uint flags)
    {
        CacheItem item = _transcoder.Serialize(value);

        Assert.Equal(flags, item.Flags);
        object underlying = Convert.ChangeType(value, Enum.GetUnderlyingType(value.GetType()), System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(underlying, _transcoder.Deserialize(item));
    }

    [Theory]
    [MemberData(nameof(Enums))]
    public void DeserializeOfEnum_ReturnsTheEnum(Enum value, uint flags)
    {
        CacheItem item = _transcoder.Serialize(value);

        Assert.Equal(flags, item.Flags);
        Assert.Equal(value, _transcoder.DeserializeAs(value.GetType(), item));
        Assert.Equal(value, _transcoder.DeserializeAs(typeof(Nullable<>).MakeGenericType(value.GetType()), item));
    }

    [Fact]
    public void DeserializeOfNullableEnum_NullItem_ReturnsNull()
    {
        Assert.Null(_transcoder.Deserialize<Color?>(_transcoder.Serialize(null)));
    }

    [Fact]
    public void DeserializeOfEnum_OtherUnderlyingType_ThrowsWrongType()
    {
        CacheItem item = _transcoder.Serialize(5L);

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<Color>(item));

        Assert.Equal(typeof(Color), e.DataType);
        Assert.Equal(0x010Bu, e.Flags);
    }

    [Fact]
    public void DeserializeOfT_WrongPrimitive_ThrowsTranscoderExceptionNotInvalidCast()
    {
        CacheItem item = _transcoder.Serialize(42);

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<long>(item));

        Assert.Equal("The item under flags 0x0109 holds a System.Int32, not a System.Int64. Read it as System.Int32 (or object), or store a System.Int64.", e.Message);
        Assert.Equal(typeof(long), e.DataType);
    }

    [Fact]
    public void DeserializeOfString_IntItem_ThrowsWrongType()
    {
        Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<string>(_transcoder.Serialize(1)));
    }

    [Fact]
    public void DeserializeOfObject_ReturnsBoxedStoredType()
    {
        Assert.Equal((ushort)7, _transcoder.Deserialize<object>(_transcoder.Serialize((ushort)7)));
    }

    [Fact]
    public void DeserializeOfValueType_AnyNullableForm_Works()
    {
        Assert.Equal(Guid.Empty, _transcoder.Deserialize<Guid?>(_transcoder.Serialize(Guid.Empty)));
        Assert.Equal(Int128.MaxValue, _transcoder.Deserialize<Int128?>(_transcoder.Serialize(Int128.MaxValue)));
        Assert.Equal(new DateOnly(2020, 1, 1), _transcoder.Deserialize<DateOnly?>(_transcoder.Serialize(new DateOnly(2020, 1, 1))));
    }
}
