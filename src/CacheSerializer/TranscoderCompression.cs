namespace CacheSerializer;

/// <summary>The algorithm <see cref="ProtobufTranscoder"/> compresses large payloads with (all from System.IO.Compression).</summary>
/// <remarks>The algorithm is recorded in each compressed payload, so a reader reads every algorithm whatever its own setting.</remarks>
public enum TranscoderCompression
{
    /// <summary>No compression (the default).</summary>
    None = 0,

    /// <summary>Brotli (RFC 7932): the smallest items, the slowest to write.</summary>
    Brotli = 1,

    /// <summary>Raw Deflate (RFC 1951).</summary>
    Deflate = 2,

    /// <summary>ZLib (RFC 1950): Deflate with a 2-byte header and an Adler-32 checksum that catches corruption.</summary>
    ZLib = 3,
}
