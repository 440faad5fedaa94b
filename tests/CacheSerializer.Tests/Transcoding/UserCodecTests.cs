namespace CacheSerializer.Tests.Transcoding;

public class UserCodecTests
{
    private static ProtobufTranscoder With(params CacheCodec[] codecs)
    {
        var options = new ProtobufTranscoderOptions();
        foreach (CacheCodec codec in codecs)
        {
            options.Codecs.Add(codec);
        }

        return new ProtobufTranscoder(options);
    }

    [Fact]
    public void Serialize_RegisteredCodec_WritesUnderItsFlag()
    {
        CacheItem item = With(new PointCodec()).Serialize(new Point(1, -1));

        Assert.Equal(0xC620u, item.Flags);
        Assert.Equal("01000000ffffffff", Convert.ToHexStringLower(item.Bytes()));
    }

    [Fact]
    public void Deserialize_RegisteredCodec_ReturnsValueThroughBothOverloads()
    {
        ProtobufTranscoder transcoder = With(new PointCodec());
        CacheItem item = transcoder.Serialize(new Point(3, 4));

        Assert.Equal(new Point(3, 4), transcoder.Deserialize(item));
        Assert.Equal(new Point(3, 4), transcoder.Deserialize<Point>(item));
        Assert.Equal(new Point(3, 4), transcoder.Deserialize<Point?>(item));
    }

    [Fact]
    public void Serialize_CodecForNativeType_WinsOverTheNativeCodec()
    {
        ProtobufTranscoder transcoder = With(new IntAsTextCodec());

        CacheItem item = transcoder.Serialize(1234);

        Assert.Equal(0xC67Fu, item.Flags);
        Assert.Equal("1234"u8.ToArray(), item.Bytes());
        Assert.Equal(1234, transcoder.Deserialize<int>(item));
        Assert.Equal(77, transcoder.Deserialize<int>(new ProtobufTranscoder().Serialize(77)));
    }

    [Fact]
    public void Deserialize_CodecThrows_IsWrappedInTranscoderException()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => With(new PointCodec()).Deserialize(TranscoderTestHelpers.Item(0xC620, 1, 2, 3)));

        Assert.Equal(0xC620u, e.Flags);
        Assert.Equal(typeof(object), e.DataType);
        Assert.IsType<FormatException>(e.InnerException);
    }

    [Fact]
    public void Deserialize_UserFlagWithoutCodec_GoesToInnerAndIsRefused()
    {
        CacheItem item = With(new PointCodec()).Serialize(new Point(1, 2));

        Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(item));
    }

    [Fact]
    public void Deserialize_MessageWrittenBeforeACodecWasRegisteredForIt_StillReads()
    {
        var person = new Messages.Person { Name = "before" };
        CacheItem old = new ProtobufTranscoder().Serialize(person);
        ProtobufTranscoder transcoder = With(new PersonAsNameCodec());

        Assert.Equal(0xC621u, transcoder.Serialize(person).Flags);
        Assert.Equal(person, transcoder.Deserialize<Messages.Person>(old));
        Assert.Equal(person, transcoder.Deserialize(old));
    }

    [Theory]
    [InlineData(0xC61Fu)]
    [InlineData(0xC680u)]
    [InlineData(0x0109u)]
    public void Constructor_FlagOutsideApplicationRange_Throws(uint flags)
    {
        ArgumentOutOfRangeException e = Assert.Throws<ArgumentOutOfRangeException>(() => new PointCodec(flags));

        Assert.Equal("flags", e.ParamName);
    }
}
