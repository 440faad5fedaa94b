using System.Buffers.Binary;
using System.IO.Compression;
using System.Runtime.InteropServices;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The compressed payload (compression bit 0x0080 in the flags): one byte naming the algorithm (1 Brotli, 2 Deflate,
/// 3 ZLib), the uncompressed length as 4 bytes little-endian, then the compressed stream of the uncompressed payload.
/// </summary>
/// <remarks>
/// Reading is bounded: the declared length may be at most <see cref="Limit"/> (MaxValueSize, or MaxDecompressionRatio
/// times the stored payload's length if that is more), the output grows by doubling up to the declared length as data
/// actually arrives (a bare claim allocates little), and a stream that would write more (or less) than it declares is a
/// malformed item. A writer never compresses beyond the same limit, so everything it writes reads back.
/// </remarks>
internal static class PayloadCompressor
{
    public const int HeaderSize = 5;

    private const byte BrotliId = 1;
    private const byte DeflateId = 2;
    private const byte ZLibId = 3;

    /// <summary>Returns the compressed payload, or <see langword="null"/> when compressing does not make it smaller.</summary>
    public static ArraySegment<byte>? TryCompress(ArraySegment<byte> payload, TranscoderCompression algorithm, CompressionLevel level, int maxValueSize, int maxRatio)
    {
        var output = new MemoryStream(payload.Count / 2 + HeaderSize);
        output.WriteByte(algorithm switch
        {
            TranscoderCompression.Brotli => BrotliId,
            TranscoderCompression.Deflate => DeflateId,
            _ => ZLibId,
        });
        Span<byte> length = stackalloc byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(length, payload.Count);
        output.Write(length);

        using (var compressor = Compressor(algorithm, output, level))
        {
            compressor.Write(payload);
        }

        if (output.Length >= payload.Count || payload.Count > Limit(output.Length, maxValueSize, maxRatio))
        {
            return null;
        }

        return new ArraySegment<byte>(output.GetBuffer(), 0, (int)output.Length);
    }

    /// <summary>Decompresses a stored payload, within the bound.</summary>
    public static byte[] Decompress(ReadOnlyMemory<byte> stored, uint flags, int maxValueSize, int maxRatio)
    {
        var span = stored.Span;
        if (span.Length < HeaderSize)
        {
            ThrowHelper.Malformed(flags, null, $"a compressed payload starts with a {HeaderSize}-byte header, this one has {span.Length} bytes");
        }

        var algorithm = span[0];
        var declared = BinaryPrimitives.ReadUInt32LittleEndian(span[1..]);
        var limit = Limit(stored.Length, maxValueSize, maxRatio);
        if (declared > limit)
        {
            ThrowHelper.Malformed(
                flags,
                null,
                $"the payload declares {declared} bytes uncompressed, more than the limit of {limit} (MaxValueSize {maxValueSize}, or "
                + $"MaxDecompressionRatio {maxRatio} times its {stored.Length} stored bytes)");
        }

        if (!MemoryMarshal.TryGetArray(stored, out var segment))
        {
            segment = new ArraySegment<byte>(stored.ToArray());
        }

        using var source = new MemoryStream(segment.Array!, segment.Offset + HeaderSize, segment.Count - HeaderSize, writable: false);
        using var decompressor = algorithm switch
        {
            BrotliId => (Stream)new BrotliStream(source, CompressionMode.Decompress),
            DeflateId => new DeflateStream(source, CompressionMode.Decompress),
            ZLibId => new ZLibStream(source, CompressionMode.Decompress),
            _ => ThrowHelper.Malformed<Stream>(flags, null, $"compression algorithm {algorithm} is not 1 (Brotli), 2 (Deflate) or 3 (ZLib)"),
        };

        var result = new byte[Math.Min(declared, Math.Max(64 * 1024, 4L * stored.Length))];
        var read = 0;
        while (read < declared)
        {
            if (read == result.Length)
            {
                Array.Resize(ref result, (int)Math.Min(declared, 2L * result.Length));
            }

            var n = decompressor.Read(result, read, result.Length - read);
            if (n == 0)
            {
                ThrowHelper.Malformed(flags, null, $"the compressed stream ends after {read} of the {declared} bytes it declares");
            }

            read += n;
        }

        Span<byte> extra = stackalloc byte[1];
        if (decompressor.Read(extra) != 0)
        {
            ThrowHelper.Malformed(flags, null, $"the compressed stream holds more than the {declared} bytes it declares");
        }

        return result;
    }

    /// <summary>The largest uncompressed length a stored payload of <paramref name="storedLength"/> bytes may declare.</summary>
    public static long Limit(long storedLength, int maxValueSize, int maxRatio) => Math.Min(Array.MaxLength, Math.Max(maxValueSize, storedLength * maxRatio));

    private static Stream Compressor(TranscoderCompression algorithm, Stream output, CompressionLevel level) => algorithm switch
    {
        TranscoderCompression.Brotli => new BrotliStream(output, level, leaveOpen: true),
        TranscoderCompression.Deflate => new DeflateStream(output, level, leaveOpen: true),
        _ => new ZLibStream(output, level, leaveOpen: true),
    };
}
