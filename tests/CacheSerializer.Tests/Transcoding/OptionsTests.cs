using System.IO.Compression;
using CacheSerializer.Tests.Transcoding.Messages;

namespace CacheSerializer.Tests.Transcoding;

public class OptionsTests
{
    public static IEnumerable<object[]> InvalidOptions =>
    [
        [new ProtobufTranscoderOptions { MaxValueSize = 0 }, "ProtobufTranscoderOptions.MaxValueSize must be at least 1 byte, not 0."],
        [new ProtobufTranscoderOptions { Compression = (TranscoderCompression)9 }, "ProtobufTranscoderOptions.Compression must be None, Brotli, Deflate, ZLib, Zstandard or Lz4, not 9."],
        [new ProtobufTranscoderOptions { CompressionThreshold = -1 }, "ProtobufTranscoderOptions.CompressionThreshold must be 0 or more, not -1."],
        [new ProtobufTranscoderOptions { CompressionLevel = (CompressionLevel)42 }, "ProtobufTranscoderOptions.CompressionLevel is not a CompressionLevel: 42."],
        [new ProtobufTranscoderOptions { MaxDecompressionRatio = 1 }, "ProtobufTranscoderOptions.MaxDecompressionRatio must be 2-1024, not 1."],
        [new ProtobufTranscoderOptions { MaxDecompressionRatio = 1025 }, "ProtobufTranscoderOptions.MaxDecompressionRatio must be 2-1024, not 1025."],
        [new ProtobufTranscoderOptions { KnownTypes = { typeof(Guid) } }, "ProtobufTranscoderOptions.KnownTypes contains System.Guid, which is not stored with a type header (only Google.Protobuf messages and protobuf-net types are)."],
        [new ProtobufTranscoderOptions { BinaryFormatterFallbackTypes = { typeof(List<>) } }, "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes must hold closed types, not System.Collections.Generic.List`1[T]."],
        [new ProtobufTranscoderOptions { Codecs = { new PointCodec(), new PointCodec() } }, "ProtobufTranscoderOptions.Codecs has two codecs under flag 0xC620: CacheSerializer.Tests.Transcoding.PointCodec and CacheSerializer.Tests.Transcoding.PointCodec."
            + Environment.NewLine + "ProtobufTranscoderOptions.Codecs has two codecs for CacheSerializer.Tests.Transcoding.Point: CacheSerializer.Tests.Transcoding.PointCodec and CacheSerializer.Tests.Transcoding.PointCodec."],
        [new ProtobufTranscoderOptions { Codecs = { new PointCodec(), new PointCodec(0xC621) } }, "ProtobufTranscoderOptions.Codecs has two codecs for CacheSerializer.Tests.Transcoding.Point: CacheSerializer.Tests.Transcoding.PointCodec and CacheSerializer.Tests.Transcoding.PointCodec."],
    ];

    [Theory]
    [MemberData(nameof(InvalidOptions))]
    public void Constructor_InvalidOption_ThrowsNamingTheProperty(ProtobufTranscoderOptions options, string message)
    {
        ArgumentException e = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(options));

        Assert.Equal(message, e.Message);
    }

    [Fact]
    public void Constructor_KnownTypeNothingStores_ThrowsWithTheReason()
    {
        ArgumentException e = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(new ProtobufTranscoderOptions { KnownTypes = { typeof(System.Text.StringBuilder) } }));

        Assert.StartsWith("ProtobufTranscoderOptions.KnownTypes contains System.Text.StringBuilder, which cannot be stored: Cannot store a System.Text.StringBuilder: protobuf-net has no contract for it.", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Constructor_NullOptions_Throws()
    {
        Assert.Throws<ArgumentNullException>(() => new ProtobufTranscoder(null!));
    }

    [Fact]
    public void Constructor_OptionsChangedAfterwards_DoNotAffectTheTranscoder()
    {
        var options = new ProtobufTranscoderOptions { MaxValueSize = 100 };
        var transcoder = new ProtobufTranscoder(options);

        options.MaxValueSize = 1;
        options.Compression = TranscoderCompression.Brotli;
        options.CompressionThreshold = 0;
        options.ForeignItemReader = null;
        options.TypeAliases[typeof(Person)] = 9;
        options.Codecs.Add(new PointCodec());
        options.BinaryFormatterFallbackTypes.Add(typeof(BinaryFormatterFallbackTests.Legacy));

        Assert.Equal(10, transcoder.Serialize("0123456789").Data.Count);
        Assert.Equal(0x0112u, transcoder.Serialize("0123456789").Flags);
        Assert.NotEqual((byte)((9 << 1) | 1), transcoder.Serialize(new Person()).Bytes()[0]);
        Assert.Equal(0xC541u, transcoder.Serialize(new Point(1, 2)).Flags); // protobuf-net (an auto-tuple), not the codec added later
        Assert.Throws<TranscoderException>(() => transcoder.Serialize(new BinaryFormatterFallbackTests.Legacy()));
    }

    [Fact]
    public void Constructor_Defaults_AreTheDocumentedValues()
    {
        var options = new ProtobufTranscoderOptions();

        Assert.Equal(1048576, options.MaxValueSize);
        Assert.Equal(TranscoderCompression.Zstandard, options.Compression);
        Assert.False(options.CompressStringsAndBytes);
        Assert.Equal(1024, options.CompressionThreshold);
        Assert.Equal(CompressionLevel.Fastest, options.CompressionLevel);
        Assert.Equal(64, options.MaxDecompressionRatio);
        Assert.NotNull(options.ForeignItemReader);
        Assert.Empty(options.Codecs);
        Assert.Empty(options.TypeAliases);
        Assert.Empty(options.KnownTypes);
        Assert.Empty(options.BinaryFormatterFallbackTypes);
    }
}
