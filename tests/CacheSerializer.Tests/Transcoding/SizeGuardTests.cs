namespace CacheSerializer.Tests.Transcoding;

public class SizeGuardTests
{
    [Fact]
    public void Serialize_AboveDefaultLimit_ThrowsNamingTypeSizeAndLimit()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Serialize(new byte[1024 * 1024 + 1]));

        Assert.Equal(typeof(byte[]), e.DataType);
        Assert.Equal(0xFA52u, e.Flags);
        Assert.StartsWith("A System.Byte[] stores as 1048577 bytes (flags 0xFA52), above ProtobufTranscoderOptions.MaxValueSize (1048576 bytes)", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_ExactlyAtLimit_IsStored()
    {
        Assert.Equal(1024 * 1024, new ProtobufTranscoder().Serialize(new byte[1024 * 1024]).Data.Count);
    }

    [Fact]
    public void Serialize_ConfiguredLimit_Applies()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = 3 });

        Assert.Equal(3, transcoder.Serialize("abc").Data.Count);
        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Serialize("abcd"));
        Assert.Equal(typeof(string), e.DataType);
    }

    [Fact]
    public void Serialize_LargeButCompressible_IsMeasuredAfterCompression()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.Brotli, CompressStringsAndBytes = true, MaxValueSize = 10_000 });
        var random = new Random(7);
        string text = string.Concat(Enumerable.Range(0, 16_000).Select(_ => "0123456789abcdef"[random.Next(16)]));

        CacheItem item = transcoder.Serialize(text);

        Assert.Equal(0x0192u, item.Flags);
        Assert.Equal(text, transcoder.Deserialize(item));
    }
}
