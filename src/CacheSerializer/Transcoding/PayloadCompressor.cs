using System.Buffers;
using System.Buffers.Binary;
using System.IO.Compression;
using System.Runtime.InteropServices;
using K4os.Compression.LZ4;
using ZstdSharp;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The compressed payload (compression bit 0x0080 in the flags): one byte naming the algorithm (1 Brotli, 2 Deflate,
/// 3 ZLib, 4 Zstandard, 5 LZ4), the uncompressed length as 4 bytes little-endian, then the compressed form of the
/// uncompressed payload.
/// </summary>
/// <remarks>
/// Reading is bounded: the declared length may be at most <see cref="Limit"/> (MaxValueSize, or MaxDecompressionRatio
/// times the stored payload's length if that is more). Brotli, Deflate and ZLib are streams: the output grows by doubling
/// up to the declared length as data actually arrives (a bare claim allocates little). Zstandard and LZ4 decode in one
/// call into an array of the declared length (a Zstandard frame must also state that length in its own header, so a
/// bare claim is refused before allocating). Any algorithm whose data holds more or fewer bytes than declared is a
/// malformed item. A writer never compresses beyond the same limit, so everything it writes reads back.
/// </remarks>
internal static class PayloadCompressor
{
    public const int HeaderSize = 5;

    private const byte BrotliId = 1;
    private const byte DeflateId = 2;
    private const byte ZLibId = 3;
    private const byte ZstandardId = 4;
    private const byte Lz4Id = 5;

    // ZstdSharp's compression and decompression contexts are not thread-safe and are costly to create (a level-3
    // context holds about 1 MB of tables): one per thread, per level, reused for every item.
    [ThreadStatic]
    private static Dictionary<int, Compressor>? t_zstdCompressors;

    [ThreadStatic]
    private static Decompressor? t_zstdDecompressor;

    /// <summary>The level of Zstandard for a <see cref="CompressionLevel"/>: zstd's fast level 1, its default 3, 19 for the smallest.</summary>
    public static int ZstandardLevel(CompressionLevel level) => level switch
    {
        CompressionLevel.Fastest => 1,
        CompressionLevel.SmallestSize => 19,
        CompressionLevel.NoCompression => 1,
        _ => 3,
    };

    /// <summary>The level of LZ4 for a <see cref="CompressionLevel"/>: the fast encoder, high compression level 9, or level 12.</summary>
    public static LZ4Level Lz4Level(CompressionLevel level) => level switch
    {
        CompressionLevel.Optimal => LZ4Level.L09_HC,
        CompressionLevel.SmallestSize => LZ4Level.L12_MAX,
        _ => LZ4Level.L00_FAST,
    };

    /// <summary>Returns the compressed payload, or <see langword="null"/> when compressing does not make it smaller.</summary>
    public static ArraySegment<byte>? TryCompress(ArraySegment<byte> payload, TranscoderCompression algorithm, CompressionLevel level, int maxValueSize, int maxRatio) =>
        algorithm switch
        {
            TranscoderCompression.Zstandard or TranscoderCompression.Lz4 => TryCompressBlock(payload, algorithm, level, maxValueSize, maxRatio),
            _ => TryCompressStream(payload, algorithm, level, maxValueSize, maxRatio),
        };

    /// <summary>
    /// Decompresses a stored payload, within the bound. Zstandard and LZ4 decompress into an array rented from
    /// <see cref="ArrayPool{T}.Shared"/>, returned in <paramref name="rented"/>: give it back once the payload is read (the
    /// readers copy what they keep). A read of a large item then allocates no array of its size, which on the large
    /// object heap would cost a gen-2 collection's share per read. The stream formats grow their output as they read,
    /// into a new array (<paramref name="rented"/> is null).
    /// </summary>
    public static ReadOnlyMemory<byte> Decompress(ReadOnlyMemory<byte> stored, uint flags, int maxValueSize, int maxRatio, out byte[]? rented)
    {
        rented = null;
        ReadOnlySpan<byte> span = stored.Span;
        if (span.Length < HeaderSize)
        {
            ThrowHelper.ThrowMalformed(flags, null, $"a compressed payload starts with a {HeaderSize}-byte header, this one has {span.Length} bytes");
        }

        byte algorithm = span[0];
        uint declared = BinaryPrimitives.ReadUInt32LittleEndian(span[1..]);
        long limit = Limit(stored.Length, maxValueSize, maxRatio);
        if (declared > limit)
        {
            ThrowHelper.ThrowMalformed(
                flags,
                null,
                $"the payload declares {declared} bytes uncompressed, more than the limit of {limit} (MaxValueSize {maxValueSize}, or "
                + $"MaxDecompressionRatio {maxRatio} times its {stored.Length} stored bytes)");
        }

        if (algorithm is BrotliId or DeflateId or ZLibId)
        {
            return DecompressStream(stored, algorithm, declared, flags);
        }

        if (algorithm is not (ZstandardId or Lz4Id))
        {
            ThrowHelper.ThrowMalformed(flags, null, $"compression algorithm {algorithm} is not 1 (Brotli), 2 (Deflate), 3 (ZLib), 4 (Zstandard) or 5 (LZ4)");
        }

        byte[] output = ArrayPool<byte>.Shared.Rent((int)declared);
        try
        {
            Span<byte> target = output.AsSpan(0, (int)declared);
            if (algorithm == ZstandardId)
            {
                DecompressZstandard(span[HeaderSize..], target, flags);
            }
            else
            {
                DecompressLz4(span[HeaderSize..], target, flags);
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(output);
            throw;
        }

        rented = output;
        return output.AsMemory(0, (int)declared);
    }

    /// <summary>The largest uncompressed length a stored payload of <paramref name="storedLength"/> bytes may declare.</summary>
    public static long Limit(long storedLength, int maxValueSize, int maxRatio) => Math.Min(Array.MaxLength, Math.Max(maxValueSize, storedLength * maxRatio));

    private static ArraySegment<byte>? TryCompressStream(ArraySegment<byte> payload, TranscoderCompression algorithm, CompressionLevel level, int maxValueSize, int maxRatio)
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

        using (Stream compressor = StreamCompressor(algorithm, output, level))
        {
            compressor.Write(payload);
        }

        if (output.Length >= payload.Count || payload.Count > Limit(output.Length, maxValueSize, maxRatio))
        {
            return null;
        }

        return new ArraySegment<byte>(output.GetBuffer(), 0, (int)output.Length);
    }

    // Zstandard and LZ4 compress in one call into a rented buffer of the worst-case size; only the result is copied
    // into an array of its own, so a stored item never holds on to the worst-case room.
    private static ArraySegment<byte>? TryCompressBlock(ArraySegment<byte> payload, TranscoderCompression algorithm, CompressionLevel level, int maxValueSize, int maxRatio)
    {
        int bound = algorithm == TranscoderCompression.Zstandard ? ZstdSharp.Compressor.GetCompressBound(payload.Count) : LZ4Codec.MaximumOutputSize(payload.Count);
        byte[] rented = ArrayPool<byte>.Shared.Rent(HeaderSize + bound);
        try
        {
            Span<byte> target = rented.AsSpan(HeaderSize, bound);
            int written = algorithm == TranscoderCompression.Zstandard
                ? ZstandardCompressor(ZstandardLevel(level)).Wrap(payload.AsSpan(), target)
                : LZ4Codec.Encode(payload.AsSpan(), target, Lz4Level(level));
            int total = HeaderSize + written;
            if (written <= 0 || total >= payload.Count || payload.Count > Limit(total, maxValueSize, maxRatio))
            {
                return null;
            }

            byte[] result = GC.AllocateUninitializedArray<byte>(total);
            result[0] = algorithm == TranscoderCompression.Zstandard ? ZstandardId : Lz4Id;
            BinaryPrimitives.WriteInt32LittleEndian(result.AsSpan(1), payload.Count);
            rented.AsSpan(HeaderSize, written).CopyTo(result.AsSpan(HeaderSize));
            return new ArraySegment<byte>(result);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private static Compressor ZstandardCompressor(int level)
    {
        Dictionary<int, Compressor> compressors = t_zstdCompressors ??= [];
        if (!compressors.TryGetValue(level, out Compressor? compressor))
        {
            compressor = new Compressor(level);
            compressors.Add(level, compressor);
        }

        return compressor;
    }

    private static void DecompressZstandard(ReadOnlySpan<byte> frame, Span<byte> result, uint flags)
    {
        int declared = result.Length;
        ulong stated;
        try
        {
            stated = Decompressor.GetDecompressedSize(frame);
        }
        catch (ZstdException e)
        {
            ThrowHelper.ThrowMalformed(flags, null, $"the Zstandard frame's header is not readable ({e.Message})");
            return;
        }

        if (stated != (ulong)declared)
        {
            ThrowHelper.ThrowMalformed(flags, null, $"the Zstandard frame states {stated} bytes, the payload declares {declared}");
        }

        Decompressor decompressor = t_zstdDecompressor ??= new Decompressor();
        int written;
        try
        {
            written = decompressor.Unwrap(frame, result);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // A failed call leaves the context mid-frame: the next item starts from a clean one.
            t_zstdDecompressor = null;
            ThrowHelper.ThrowMalformed(flags, null, $"the Zstandard frame is corrupt ({e.Message})");
            return;
        }

        if (written != declared)
        {
            ThrowHelper.ThrowMalformed(flags, null, $"the Zstandard frame holds {written} bytes, the payload declares {declared}");
        }
    }

    private static void DecompressLz4(ReadOnlySpan<byte> block, Span<byte> result, uint flags)
    {
        int declared = result.Length;

        // LZ4's decoder checks every match and literal against both buffers and returns -1 rather than write or read
        // past either: a block that would need more room than declared, or that is cut short, fails here.
        int written = LZ4Codec.Decode(block, result);
        if (written != declared)
        {
            ThrowHelper.ThrowMalformed(
                flags,
                null,
                written < 0 ? $"the LZ4 block is corrupt or holds more than the {declared} bytes it declares" : $"the LZ4 block holds {written} bytes, the payload declares {declared}");
        }
    }

    private static byte[] DecompressStream(ReadOnlyMemory<byte> stored, byte algorithm, uint declared, uint flags)
    {
        if (!MemoryMarshal.TryGetArray(stored, out ArraySegment<byte> segment))
        {
            segment = new ArraySegment<byte>(stored.ToArray());
        }

        using var source = new MemoryStream(segment.Array!, segment.Offset + HeaderSize, segment.Count - HeaderSize, writable: false);
        using Stream decompressor = algorithm switch
        {
            BrotliId => (Stream)new BrotliStream(source, CompressionMode.Decompress),
            DeflateId => new DeflateStream(source, CompressionMode.Decompress),
            _ => new ZLibStream(source, CompressionMode.Decompress),
        };

        byte[] result = new byte[Math.Min(declared, Math.Max(64 * 1024, 4L * stored.Length))];
        int read = 0;
        while (read < declared)
        {
            if (read == result.Length)
            {
                Array.Resize(ref result, (int)Math.Min(declared, 2L * result.Length));
            }

            int n = decompressor.Read(result, read, result.Length - read);
            if (n == 0)
            {
                ThrowHelper.ThrowMalformed(flags, null, $"the compressed stream ends after {read} of the {declared} bytes it declares");
            }

            read += n;
        }

        Span<byte> extra = stackalloc byte[1];
        if (decompressor.Read(extra) != 0)
        {
            ThrowHelper.ThrowMalformed(flags, null, $"the compressed stream holds more than the {declared} bytes it declares");
        }

        return result;
    }

    private static Stream StreamCompressor(TranscoderCompression algorithm, Stream output, CompressionLevel level) => algorithm switch
    {
        TranscoderCompression.Brotli => new BrotliStream(output, level, leaveOpen: true),
        TranscoderCompression.Deflate => new DeflateStream(output, level, leaveOpen: true),
        _ => new ZLibStream(output, level, leaveOpen: true),
    };
}
