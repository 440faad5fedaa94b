using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;
using CacheSerializer.Tests.Transcoding.Contracts;
using CacheSerializer.Tests.Transcoding.Messages;

namespace CacheSerializer.Tests.Transcoding;

public class CompressionTests
{
    private static readonly string Compressible = string.Concat(Enumerable.Repeat("the quick brown fox jumps over the lazy dog; ", 200));

    // Most tests here compress strings and byte arrays, the simplest payloads to build: that takes the opt-in (by
    // default only object payloads, under flags of our own, are compressed).
    private static ProtobufTranscoder With(TranscoderCompression algorithm, int threshold = 1024, int ratio = 64) =>
        new(new ProtobufTranscoderOptions { Compression = algorithm, CompressionThreshold = threshold, MaxDecompressionRatio = ratio, CompressStringsAndBytes = true });

    /// <summary>A compressed payload as docs/format.md describes it: algorithm byte, declared length, stream.</summary>
    private static byte[] CompressedPayload(byte algorithm, uint declared, byte[] uncompressed)
    {
        using var output = new MemoryStream();
        output.WriteByte(algorithm);
        Span<byte> length = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(length, declared);
        output.Write(length);
        using (var brotli = new BrotliStream(output, CompressionLevel.Optimal, leaveOpen: true))
        {
            brotli.Write(uncompressed);
        }

        return output.ToArray();
    }

    [Fact]
    public void Serialize_DefaultOptions_CompressObjectAboveThresholdWithZstandardLevel1()
    {
        var value = new Formats { Plain = 7, Text = Compressible };
        CacheItem plain = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(value);
        var transcoder = new ProtobufTranscoder();

        CacheItem item = transcoder.Serialize(value);

        // The whole uncompressed payload (type header and protobuf-net body), as zstd level 1 compresses it alone.
        using var zstd = new ZstdSharp.Compressor(1);
        byte[] frame = zstd.Wrap(plain.Bytes()).ToArray();
        Assert.Equal(0xC541u, plain.Flags);
        Assert.Equal(0xC5C1u, item.Flags);
        Assert.Equal(4, item.Data[0]);
        Assert.Equal((uint)plain.Data.Count, BinaryPrimitives.ReadUInt32LittleEndian(item.Data.AsSpan(1)));
        Assert.Equal(Convert.ToHexString(frame), Convert.ToHexString(item.Data.AsSpan(5)));
        Assert.Equal(value, transcoder.Deserialize<Formats>(item));
    }

    [Fact]
    public void Serialize_DefaultOptions_MessageAboveThresholdIsCompressedWithZstandard()
    {
        var person = new Messages.Person { Name = Compressible };

        CacheItem item = new ProtobufTranscoder().Serialize(person);

        Assert.Equal(0xC5C0u, item.Flags);
        Assert.Equal(4, item.Data[0]);
        Assert.Equal(person, new ProtobufTranscoder().Deserialize<Messages.Person>(item));
    }

    [Fact]
    public void Serialize_DefaultOptions_ObjectBelowThresholdIsNotCompressed()
    {
        var value = new Formats { Plain = 7, Text = "short" };
        CacheItem plain = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(value);

        CacheItem item = new ProtobufTranscoder().Serialize(value);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(plain.Bytes(), item.Bytes());
    }

    [Fact]
    public void Serialize_DefaultOptions_StoresLargeStringAsPlainUtf8()
    {
        CacheItem item = new ProtobufTranscoder().Serialize(Compressible);

        Assert.Equal(0x0112u, item.Flags);
        Assert.Equal(Encoding.UTF8.GetBytes(Compressible), item.Bytes());
    }

    [Fact]
    public void Serialize_DefaultOptions_StoresLargeByteArrayAsIs()
    {
        byte[] bytes = Encoding.UTF8.GetBytes(Compressible);

        CacheItem item = new ProtobufTranscoder().Serialize(bytes);

        Assert.Equal(0xFA52u, item.Flags);
        Assert.Equal(bytes, item.Bytes());
    }

    [Fact]
    public void Serialize_CompressStringsAndBytes_CompressesStringAndByteArray()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { CompressStringsAndBytes = true });
        byte[] bytes = Encoding.UTF8.GetBytes(Compressible);

        CacheItem text = transcoder.Serialize(Compressible);
        CacheItem raw = transcoder.Serialize(bytes);

        Assert.Equal(0x0192u, text.Flags);
        Assert.Equal(0xFAD2u, raw.Flags);
        Assert.Equal(4, text.Data[0]);
        Assert.Equal(Compressible, new ProtobufTranscoder().Deserialize(text));
        Assert.Equal(bytes, new ProtobufTranscoder().Deserialize<byte[]>(raw));
    }

    [Fact]
    public void Serialize_CompressionNone_StoresObjectUncompressed()
    {
        var value = new Formats { Plain = 7, Text = Compressible };

        CacheItem item = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(value);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(value, new ProtobufTranscoder().Deserialize<Formats>(item));
    }

    [Theory]
    [InlineData(TranscoderCompression.Brotli, 1)]
    [InlineData(TranscoderCompression.Deflate, 2)]
    [InlineData(TranscoderCompression.ZLib, 3)]
    [InlineData(TranscoderCompression.Zstandard, 4)]
    [InlineData(TranscoderCompression.Lz4, 5)]
    public void Serialize_CompressibleAboveThreshold_SetsBitAndRoundTrips(TranscoderCompression algorithm, byte id)
    {
        ProtobufTranscoder transcoder = With(algorithm);

        CacheItem item = transcoder.Serialize(Compressible);

        Assert.Equal(0x0192u, item.Flags);
        Assert.Equal(id, item.Data[0]);
        Assert.Equal((uint)Encoding.UTF8.GetByteCount(Compressible), BinaryPrimitives.ReadUInt32LittleEndian(item.Data.AsSpan(1)));
        Assert.True(item.Data.Count < Compressible.Length / 10, $"{item.Data.Count} bytes");
        Assert.Equal(Compressible, transcoder.Deserialize(item));
        Assert.Equal(Compressible, transcoder.Deserialize<string>(item));
    }

    [Fact]
    public void Deserialize_CompressedItem_ReadsWhateverTheReadersOwnSetting()
    {
        CacheItem item = With(TranscoderCompression.Deflate).Serialize(Compressible);

        Assert.Equal(Compressible, new ProtobufTranscoder().Deserialize(item));
        Assert.Equal(Compressible, With(TranscoderCompression.Brotli).Deserialize(item));
    }

    public static TheoryData<TranscoderCompression, TranscoderCompression, CompressionLevel> WriterReaderPairs()
    {
        var data = new TheoryData<TranscoderCompression, TranscoderCompression, CompressionLevel>();
        foreach (TranscoderCompression writer in Enum.GetValues<TranscoderCompression>().Where(a => a != TranscoderCompression.None))
        {
            foreach (TranscoderCompression reader in Enum.GetValues<TranscoderCompression>())
            {
                data.Add(writer, reader, writer is TranscoderCompression.Zstandard or TranscoderCompression.Lz4 ? CompressionLevel.SmallestSize : CompressionLevel.Fastest);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(WriterReaderPairs))]
    public void Deserialize_AnyAlgorithmsItem_ReadsWhateverTheReadersSetting(TranscoderCompression writer, TranscoderCompression reader, CompressionLevel level)
    {
        var person = new Messages.Person { Name = Compressible, Id = 3 };
        CacheItem item = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = writer, CompressionLevel = level }).Serialize(person);

        Person? read = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = reader }).Deserialize<Messages.Person>(item);

        Assert.Equal(0xC5C0u, item.Flags);
        Assert.Equal((byte)writer, item.Data[0]);
        Assert.Equal(person, read);
    }

    [Theory]
    [InlineData(CompressionLevel.Fastest, 1)]
    [InlineData(CompressionLevel.Optimal, 3)]
    [InlineData(CompressionLevel.SmallestSize, 19)]
    [InlineData(CompressionLevel.NoCompression, 1)]
    public void ZstandardLevel_EachCompressionLevel_IsTheDocumentedZstdLevel(CompressionLevel level, int zstd)
    {
        Assert.Equal(zstd, CacheSerializer.Transcoding.PayloadCompressor.ZstandardLevel(level));
    }

    [Theory]
    [InlineData(CompressionLevel.Fastest, K4os.Compression.LZ4.LZ4Level.L00_FAST)]
    [InlineData(CompressionLevel.Optimal, K4os.Compression.LZ4.LZ4Level.L09_HC)]
    [InlineData(CompressionLevel.SmallestSize, K4os.Compression.LZ4.LZ4Level.L12_MAX)]
    [InlineData(CompressionLevel.NoCompression, K4os.Compression.LZ4.LZ4Level.L00_FAST)]
    public void Lz4Level_EachCompressionLevel_IsTheDocumentedLz4Level(CompressionLevel level, K4os.Compression.LZ4.LZ4Level lz4)
    {
        Assert.Equal(lz4, CacheSerializer.Transcoding.PayloadCompressor.Lz4Level(level));
    }

    [Fact]
    public void Serialize_Zstandard_IsAStandardFrameThatZstdSharpReads()
    {
        // The stream after the 5-byte header is a plain Zstandard frame (magic 28 B5 2F FD, content size in its header),
        // so any zstd decoder reads it.
        CacheItem item = With(TranscoderCompression.Zstandard).Serialize(Compressible);

        Assert.Equal("28B52FFD", Convert.ToHexString(item.Data.AsSpan(5, 4)));
        using var decompressor = new ZstdSharp.Decompressor();
        Assert.Equal(Compressible, Encoding.UTF8.GetString(decompressor.Unwrap(item.Data.AsSpan(5))));
    }

    [Fact]
    public void Serialize_Lz4_IsARawBlockThatK4osDecodes()
    {
        CacheItem item = With(TranscoderCompression.Lz4).Serialize(Compressible);
        byte[] output = new byte[Encoding.UTF8.GetByteCount(Compressible)];

        Assert.Equal(output.Length, K4os.Compression.LZ4.LZ4Codec.Decode(item.Data.AsSpan(5), output));
        Assert.Equal(Compressible, Encoding.UTF8.GetString(output));
    }

    [Fact]
    public void Deserialize_ZstandardFrameStatingAnotherLength_IsRefusedBeforeDecoding()
    {
        CacheItem item = With(TranscoderCompression.Zstandard).Serialize(Compressible);
        byte[] payload = item.Bytes();
        BinaryPrimitives.WriteUInt32LittleEndian(payload.AsSpan(1), 1000);

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0x0192, payload)));

        Assert.Contains($"the Zstandard frame states {Encoding.UTF8.GetByteCount(Compressible)} bytes, the payload declares 1000", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_ZstandardFrameCutShort_ThrowsAndTheNextItemReads()
    {
        CacheItem item = With(TranscoderCompression.Zstandard).Serialize(Compressible);
        byte[] cut = item.Data.AsSpan(0, item.Data.Count - 6).ToArray();
        var transcoder = new ProtobufTranscoder();

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize(TranscoderTestHelpers.Item(0x0192, cut)));

        Assert.Contains("Malformed item under flags 0x0192", e.Message, StringComparison.Ordinal);
        Assert.Contains("Zstandard frame", e.Message, StringComparison.Ordinal);
        Assert.Equal(Compressible, transcoder.Deserialize(item));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(+1)]
    public void Deserialize_Lz4DeclaringAnotherLength_Throws(int delta)
    {
        CacheItem item = With(TranscoderCompression.Lz4).Serialize(Compressible);
        byte[] payload = item.Bytes();
        int length = Encoding.UTF8.GetByteCount(Compressible) + delta;
        BinaryPrimitives.WriteInt32LittleEndian(payload.AsSpan(1), length);

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0x0192, payload)));

        Assert.Contains(delta < 0 ? $"holds more than the {length} bytes it declares" : $"declares {length}", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_ZstandardOrLz4HostileDeclaredLength_IsRefusedBeforeAllocating()
    {
        foreach (byte algorithm in new byte[] { 4, 5 })
        {
            byte[] payload = new byte[] { algorithm, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0 };

            TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0x0192, payload)));

            Assert.Contains("declares 2147483647 bytes uncompressed, more than the limit of 1048576", e.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Serialize_BelowThreshold_IsNotCompressed()
    {
        CacheItem item = With(TranscoderCompression.Brotli, threshold: 100_000).Serialize(Compressible);

        Assert.Equal(0x0112u, item.Flags);
    }

    [Fact]
    public void Serialize_Incompressible_IsStoredAsIs()
    {
        byte[] random = new byte[4096];
        new Random(42).NextBytes(random);

        CacheItem item = With(TranscoderCompression.Brotli, threshold: 0).Serialize(random);

        Assert.Equal(0xFA52u, item.Flags);
        Assert.Equal(random, item.Bytes());
    }

    [Fact]
    public void Serialize_FixedSizeValue_IsNeverCompressed()
    {
        Assert.Equal(0xC520u, With(TranscoderCompression.Brotli, threshold: 0).Serialize(0m).Flags);
    }

    [Fact]
    public void Serialize_MessageAboveThreshold_CompressesWholePayloadWithHeader()
    {
        ProtobufTranscoder transcoder = With(TranscoderCompression.ZLib, threshold: 64);
        var person = new Messages.Person { Name = Compressible };

        CacheItem item = transcoder.Serialize(person);

        Assert.Equal(0xC5C0u, item.Flags);
        Assert.Equal(person, transcoder.Deserialize<Messages.Person>(item));
    }

    [Fact]
    public void Serialize_SmallButVeryCompressible_IsCompressedUnderTheMaxValueSizeFloor()
    {
        byte[] zeros = new byte[100_000];
        ProtobufTranscoder transcoder = With(TranscoderCompression.Brotli, ratio: 2);

        CacheItem item = transcoder.Serialize(zeros);

        Assert.Equal(0xFAD2u, item.Flags);
        Assert.True(item.Data.Count < 1000, $"{item.Data.Count} bytes");
        Assert.Equal(zeros, transcoder.Deserialize<byte[]>(item));
    }

    [Fact]
    public void Serialize_BeyondDecompressionLimit_IsNotCompressedAndHitsTheSizeGuard()
    {
        // 300 KB of zeros compress to a few hundred bytes, but a reader accepts at most max(MaxValueSize, 2 x stored):
        // the writer never stores what a reader would refuse.
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions
        {
            Compression = TranscoderCompression.Brotli,
            MaxDecompressionRatio = 2,
            MaxValueSize = 200_000,
        });

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new byte[300_000]));

        Assert.StartsWith("A System.Byte[] stores as 300000 bytes (flags 0xFA52)", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_HostileDeclaredLength_IsRefusedBeforeAllocating()
    {
        byte[] payload = CompressedPayload(1, uint.MaxValue, [1, 2, 3]);

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0x0192, payload)));

        Assert.Contains($"declares {uint.MaxValue} bytes uncompressed, more than the limit of 1048576 (MaxValueSize 1048576,", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_ClaimWithoutData_AllocatesLittle()
    {
        // A tiny item declaring the full 1 MiB it may: the output grows only as data arrives.
        byte[] payload = CompressedPayload(1, 1024 * 1024, new byte[10]);
        long before = GC.GetAllocatedBytesForCurrentThread();

        Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0xFAD2, payload)));

        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 256 * 1024, "allocated the declared length up front");
    }

    [Fact]
    public void Deserialize_BombBeyondDeclaredLength_StopsAtTheBound()
    {
        // 64 MB of zeros compresses to a few hundred bytes; the item declares a length within the ratio bound but the
        // stream holds far more: reading stops one byte past the declared length.
        byte[] bomb = new byte[64 * 1024 * 1024];
        byte[] payload = CompressedPayload(1, 1000, bomb);
        long before = GC.GetAllocatedBytesForCurrentThread();

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0xFAD2, payload)));

        Assert.Contains("holds more than the 1000 bytes it declares", e.Message, StringComparison.Ordinal);
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 4 * 1024 * 1024, "decompression allocated far more than declared");
    }

    [Fact]
    public void Deserialize_StreamShorterThanDeclared_Throws()
    {
        byte[] payload = CompressedPayload(1, 100, new byte[50]);

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0xFAD2, payload)));

        Assert.Contains("ends after 50 of the 100 bytes", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { })]
    [InlineData(new byte[] { 1, 0, 0 })]
    [InlineData(new byte[] { 9, 3, 0, 0, 0, 1, 2, 3 })]
    [InlineData(new byte[] { 2, 3, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF })]
    [InlineData(new byte[] { 3, 3, 0, 0, 0, 0x78, 0x9C, 0xFF })]
    [InlineData(new byte[] { 4, 3, 0, 0, 0, 0x28, 0xB5, 0x2F, 0xFD, 0xFF })]
    [InlineData(new byte[] { 4, 3, 0, 0, 0, 1, 2, 3 })]
    [InlineData(new byte[] { 5, 3, 0, 0, 0, 0xF0, 0xFF })]
    [InlineData(new byte[] { 5, 3, 0, 0, 0 })]
    public void Deserialize_CorruptCompressedPayload_ThrowsTranscoderException(byte[] payload)
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0x0192, payload)));

        Assert.Equal(0x0192u, e.Flags);
    }

    [Fact]
    public void Deserialize_CompressionBitOnNullFlag_IsNotOursAndGoesToInner()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder { }.Deserialize(TranscoderTestHelpers.Item(0x0182)));

        Assert.Equal(0x0182u, e.Flags);
    }
}
