namespace CacheSerializer.Tests.Transcoding;

public class NativeRoundTripTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    public static IEnumerable<object[]> Cases => NativeCases.Names;

    // The value types only: a string or a byte array has no Nullable<T> form to read it as.
    public static IEnumerable<object[]> ValueTypeCases => NativeCases.Names.Where(row => NativeCases.All[(string)row[0]].GetType().IsValueType);

    [Theory]
    [MemberData(nameof(Cases))]
    public void Deserialize_NativeValue_ReturnsIdenticalValueOfStoredType(string name)
    {
        object value = NativeCases.All[name];

        CacheItem item = _transcoder.Serialize(value);

        ValueAssert.Identical(value, _transcoder.Deserialize(item));
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void DeserializeOfT_NativeValue_ReturnsIdenticalValue(string name)
    {
        object value = NativeCases.All[name];

        CacheItem item = _transcoder.Serialize(value);

        ValueAssert.Identical(value, _transcoder.DeserializeAs(value.GetType(), item));
    }

    [Theory]
    [MemberData(nameof(ValueTypeCases))]
    public void DeserializeOfNullable_NativeValueType_ReturnsValue(string name)
    {
        object value = NativeCases.All[name];

        CacheItem item = _transcoder.Serialize(value);

        ValueAssert.Identical(value, _transcoder.DeserializeAs(typeof(Nullable<>).MakeGenericType(value.GetType()), item));
    }

    [Fact]
    public void Serialize_Null_IsStoredUnderDbNullFlagAndReadsBackNull()
    {
        CacheItem item = _transcoder.Serialize(null);

        Assert.Equal(0x0102u, item.Flags);
        Assert.Equal(0, item.Data.Count);
        Assert.Null(_transcoder.Deserialize(item));
        Assert.Null(_transcoder.Deserialize<string>(item));
        Assert.Null(_transcoder.Deserialize<int?>(item));
        Assert.Null(_transcoder.Deserialize<object>(item));
    }

    [Fact]
    public void DeserializeOfInt_NullItem_ThrowsNamingNullableForm()
    {
        CacheItem item = _transcoder.Serialize(null);

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<int>(item));

        Assert.Equal(0x0102u, e.Flags);
        Assert.Equal(typeof(int), e.DataType);
        Assert.Contains("System.Int32?", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_EmptyString_ReturnsEmptyStringNotNull()
    {
        CacheItem item = _transcoder.Serialize(string.Empty);

        Assert.Equal(0x0112u, item.Flags);
        Assert.Equal(string.Empty, _transcoder.Deserialize(item));
        Assert.Equal(string.Empty, _transcoder.Deserialize<string>(item));
    }

    [Fact]
    public void Serialize_StringWithLoneSurrogate_ThrowsRatherThanReplacing()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize("a\uD800b"));

        Assert.Equal(typeof(string), e.DataType);
        Assert.IsType<System.Text.EncoderFallbackException>(e.InnerException);
    }

    [Fact]
    public void Serialize_ArraySegment_StoresOnlyTheSegmentAndReadsBackAsBytes()
    {
        var segment = new ArraySegment<byte>([9, 1, 2, 3, 9], 1, 3);

        CacheItem item = _transcoder.Serialize(segment);

        Assert.Equal(0xFA52u, item.Flags);
        Assert.Equal(new byte[] { 1, 2, 3 }, item.Bytes());
        Assert.Equal(new byte[] { 1, 2, 3 }, _transcoder.Deserialize(item));
        Assert.Equal(new byte[] { 1, 2, 3 }, _transcoder.Deserialize<ArraySegment<byte>>(item).ToArray());
    }

    [Fact]
    public void Deserialize_RawBytes_CopiesSoTheReceiveBufferCanBeReused()
    {
        byte[] buffer = new byte[] { 7, 7, 1, 2, 7 };
        var item = new CacheItem(0xFA52, new ArraySegment<byte>(buffer, 2, 2));

        byte[] value = _transcoder.Deserialize<byte[]>(item)!;
        buffer[2] = 42;

        Assert.Equal(new byte[] { 1, 2 }, value);
    }

    [Fact]
    public void Deserialize_ItemSliceOfLargerBuffer_ReadsOnlyTheSlice()
    {
        byte[] buffer = new byte[] { 0xFF, 0x2A, 0x00, 0x00, 0x00, 0xFF };

        Assert.Equal(42, _transcoder.Deserialize<int>(new CacheItem(0x0109, new ArraySegment<byte>(buffer, 1, 4))));
    }

    [Fact]
    public void RoundTrip_LocalDateTime_KeepsKindAndInstant()
    {
        var local = new DateTime(2024, 1, 15, 10, 30, 0, DateTimeKind.Local);

        DateTime back = _transcoder.Deserialize<DateTime>(_transcoder.Serialize(local));

        Assert.Equal(DateTimeKind.Local, back.Kind);
        Assert.Equal(local.ToUniversalTime(), back.ToUniversalTime());
    }

    [Fact]
    public void RoundTrip_DateTimeOffset_KeepsOffsetNotJustInstant()
    {
        var value = new DateTimeOffset(2024, 2, 29, 23, 0, 0, TimeSpan.FromHours(9));

        DateTimeOffset back = _transcoder.Deserialize<DateTimeOffset>(_transcoder.Serialize(value));

        Assert.Equal(TimeSpan.FromHours(9), back.Offset);
        Assert.Equal(29, back.Day);
    }

    [Fact]
    public void RoundTrip_Decimal_KeepsScale()
    {
        decimal back = _transcoder.Deserialize<decimal>(_transcoder.Serialize(1.10m));

        Assert.Equal("1.10", back.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }
}
