using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

/// <summary>Golden bytes: the wire layouts are the contract with protobuf-net apps, so they are asserted byte for byte.</summary>
public class WireFormatTests
{
    private readonly ProtoModel _model = new();

    [ProtoContract]
    public sealed class Holder<T>
    {
        [ProtoMember(1)] public T Value { get; set; } = default!;
    }

    // Vectors from protobuf-net's bcl.proto layouts, as quoted in issue 8.
    [Fact]
    public void Serialize_TimeSpanOf90Minutes_IsBclTimeSpanInMinutes()
    {
        var bytes = _model.Serialize(new Holder<TimeSpan> { Value = TimeSpan.FromMinutes(90) });

        Assert.Equal(new byte[] { 0x0A, 0x05, 0x08, 0xB4, 0x01, 0x10, 0x02 }, bytes);
    }

    [Fact]
    public void Serialize_DecimalOnePointFive_IsBclDecimal()
    {
        var bytes = _model.Serialize(new Holder<decimal> { Value = 1.5m });

        Assert.Equal(new byte[] { 0x0A, 0x04, 0x08, 0x0F, 0x18, 0x02 }, bytes);
    }

    [Fact]
    public void Serialize_NegativeInt_IsTenByteVarint()
    {
        var bytes = _model.Serialize(new Holder<int> { Value = -1 });

        Assert.Equal(new byte[] { 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 }, bytes);
    }

    [Fact]
    public void Serialize_DoubleAndFloat_AreFixed64AndFixed32()
    {
        Assert.Equal(new byte[] { 0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F }, _model.Serialize(new Holder<double> { Value = 1.0 }));
        Assert.Equal(new byte[] { 0x0D, 0, 0, 0x80, 0x3F }, _model.Serialize(new Holder<float> { Value = 1.0f }));
    }

    [Fact]
    public void Serialize_UtcDateTime_KeepsKindInField3()
    {
        var value = new DateTime(1970, 1, 2, 0, 0, 0, DateTimeKind.Utc);

        var bytes = _model.Serialize(new Holder<DateTime> { Value = value });

        // value = 1 (zigzag 2) days (scale 0, not written), kind = UTC (1).
        Assert.Equal(new byte[] { 0x0A, 0x04, 0x08, 0x02, 0x18, 0x01 }, bytes);
        var back = _model.Deserialize<Holder<DateTime>>(bytes).Value;
        Assert.Equal(value, back);
        Assert.Equal(DateTimeKind.Utc, back.Kind);
    }

    [Fact]
    public void Serialize_UtcDateTimeWithKindOff_IsProtobufNetDefaultLayout()
    {
        var model = new ProtoModel { IncludeDateTimeKind = false };

        var bytes = model.Serialize(new Holder<DateTime> { Value = new DateTime(1970, 1, 2, 0, 0, 0, DateTimeKind.Utc) });

        Assert.Equal(new byte[] { 0x0A, 0x02, 0x08, 0x02 }, bytes);
        Assert.Equal(DateTimeKind.Unspecified, model.Deserialize<Holder<DateTime>>(bytes).Value.Kind);
    }

    [Fact]
    public void Serialize_DateTimeMaxValue_IsMinMaxScale()
    {
        var bytes = _model.Serialize(new Holder<DateTime> { Value = DateTime.MaxValue });

        Assert.Equal(new byte[] { 0x0A, 0x04, 0x08, 0x02, 0x10, 0x0F }, bytes);
        Assert.Equal(DateTime.MaxValue, _model.Deserialize<Holder<DateTime>>(bytes).Value);
    }

    [Fact]
    public void Serialize_Guid_IsTwoFixed64InByteArrayOrder()
    {
        var guid = new Guid([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);

        var bytes = _model.Serialize(new Holder<Guid> { Value = guid });

        Assert.Equal(new byte[] { 0x0A, 0x12, 0x09, 1, 2, 3, 4, 5, 6, 7, 8, 0x11, 9, 10, 11, 12, 13, 14, 15, 16 }, bytes);
        Assert.Equal(guid, _model.Deserialize<Holder<Guid>>(bytes).Value);
    }

    [Fact]
    public void Serialize_DateTimeOffset_IsTicksAndZigZagOffsetMinutes()
    {
        var value = new DateTimeOffset(new DateTime(100), TimeSpan.FromHours(-1));

        var bytes = _model.Serialize(new Holder<DateTimeOffset> { Value = value });

        // ticks 100 at field 1, offset -60 minutes zigzag = 119 at field 2.
        Assert.Equal(new byte[] { 0x0A, 0x04, 0x08, 0x64, 0x10, 0x77 }, bytes);
        Assert.Equal(value, _model.Deserialize<Holder<DateTimeOffset>>(bytes).Value);
    }

    [Fact]
    public void Serialize_DateOnlyAndTimeOnly_AreVarintsOfDayNumberAndTicks()
    {
        Assert.Equal(new byte[] { 0x08, 0x01 }, _model.Serialize(new Holder<DateOnly> { Value = DateOnly.FromDayNumber(1) }));
        Assert.Equal(new byte[] { 0x08, 0x02 }, _model.Serialize(new Holder<TimeOnly> { Value = new TimeOnly(2) }));
    }

    [Fact]
    public void Serialize_ZeroMembers_WritesOnlyTheStructContract()
    {
        // Every zero scalar is skipped; a struct contract has no null, so it is always written (here empty: field 24, length 0).
        Assert.Equal(new byte[] { 0xC2, 0x01, 0x00 }, _model.Serialize(new EverythingPoco()));
    }

    [Fact]
    public void Serialize_NullableZero_IsWritten()
    {
        Assert.Equal(new byte[] { 0x08, 0x00 }, _model.Serialize(new Holder<int?> { Value = 0 }));
        Assert.Empty(_model.Serialize(new Holder<int?> { Value = null }));
    }

    [Fact]
    public void Serialize_EmptyString_IsEmptyField()
    {
        Assert.Equal(new byte[] { 0x0A, 0x00 }, _model.Serialize(new Holder<string> { Value = string.Empty }));
    }

    [Fact]
    public void Serialize_EmptyList_IsEmptyGroupMarker()
    {
        var bytes = _model.Serialize(new NullEmptyPoco { Ints = [], HighNumbered = [] });

        // Field 1: start-group (0x0B) end-group (0x0C); field 20: two-byte tags 0xA3 0x01 and 0xA4 0x01.
        Assert.Equal(new byte[] { 0x0B, 0x0C, 0xA3, 0x01, 0xA4, 0x01 }, bytes);
    }

    [Fact]
    public void Serialize_PackedInts_IsOneLengthDelimitedField()
    {
        var bytes = _model.Serialize(new RepeatsPoco { PackedInts = [1, 2, 300] });

        Assert.Equal(new byte[] { 0x0A, 0x04, 0x01, 0x02, 0xAC, 0x02 }, bytes);
    }

    [Fact]
    public void Serialize_Enum_IsUnderlyingVarint()
    {
        Assert.Equal(new byte[] { 0xA0, 0x01, 0x01, 0xC2, 0x01, 0x00 }, _model.Serialize(new EverythingPoco { Color = Color.Red }));
        Assert.Equal(11, _model.Serialize(new Holder<Color> { Value = Color.Negative }).Length);
        Assert.Equal(new byte[] { 0x08, 0xC8, 0x01 }, _model.Serialize(new Holder<ByteFlags> { Value = ByteFlags.High }));
    }

    [Fact]
    public void Serialize_RootScalar_IsField1OfWrapper()
    {
        Assert.Equal(new byte[] { 0x08, 0x96, 0x01 }, _model.Serialize(150));
        Assert.Equal(150, _model.Deserialize<int>(new byte[] { 0x08, 0x96, 0x01 }));
        Assert.Equal(new byte[] { 0x0A, 0x02, 0x68, 0x69 }, _model.Serialize("hi"));
    }

    [Fact]
    public void Serialize_HeadroomOverload_LeavesZeroPrefixThenPayload()
    {
        var plain = _model.Serialize(new RpcPoco { Id = 7, Method = "get" });

        var withHeadroom = _model.Serialize(typeof(RpcPoco), new RpcPoco { Id = 7, Method = "get" }, headroom: 3);

        Assert.Equal(new byte[] { 0, 0, 0 }.Concat(plain), withHeadroom);
    }
}
