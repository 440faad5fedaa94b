namespace CacheSerializer;

/// <summary>The algorithm <see cref="ProtobufTranscoder"/> compresses large payloads with.</summary>
/// <remarks>
/// The algorithm is recorded in each compressed payload, so a reader reads every algorithm whatever its own setting.
/// <see cref="ProtobufTranscoderOptions.CompressionLevel"/> picks each algorithm's level (docs/format.md, "Compression").
/// docs/benchmarks.md, "Compression", has the bytes and CPU of each on the benchmark workloads.
/// </remarks>
public enum TranscoderCompression
{
    /// <summary>No compression.</summary>
    None = 0,

    /// <summary>Brotli (RFC 7932, System.IO.Compression).</summary>
    Brotli = 1,

    /// <summary>Raw Deflate (RFC 1951, System.IO.Compression).</summary>
    Deflate = 2,

    /// <summary>ZLib (RFC 1950): Deflate with a 2-byte header and an Adler-32 checksum that catches corruption.</summary>
    ZLib = 3,

    /// <summary>Zstandard (RFC 8878, through ZstdSharp.Port), the default: Brotli's bytes at a fraction of its CPU on the benchmark workloads.</summary>
    Zstandard = 4,

    /// <summary>LZ4 block format (through K4os.Compression.LZ4): the cheapest to write and to read, the largest items of the five.</summary>
    Lz4 = 5,
}
