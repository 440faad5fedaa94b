using System.IO.Compression;

namespace CacheSerializer.Workloads.Reports;

/// <summary>One compression setting of the transcoder: an algorithm at a level, as <see cref="ProtobufTranscoderOptions"/> takes them.</summary>
/// <param name="Name">The name shown in reports and benchmark parameters ("Zstandard-1").</param>
/// <param name="Algorithm">The algorithm.</param>
/// <param name="Level">The level.</param>
public sealed record CompressionSetting(string Name, TranscoderCompression Algorithm, CompressionLevel Level)
{
    /// <summary>Gets the settings measured side by side: the five algorithms at their fast level, and Zstandard and LZ4 at their middle one.</summary>
    /// <remarks>
    /// Brotli at Fastest is the setting docs and samples used before issue 18, and the baseline of the comparison. ZLib is
    /// Deflate plus a 2-byte header and a 4-byte checksum, so it is left out of the CPU runs (its bytes are in the table).
    /// </remarks>
    public static IReadOnlyList<CompressionSetting> All { get; } =
    [
        new("Brotli-Fastest", TranscoderCompression.Brotli, CompressionLevel.Fastest),
        new("Deflate-Fastest", TranscoderCompression.Deflate, CompressionLevel.Fastest),
        new("ZLib-Fastest", TranscoderCompression.ZLib, CompressionLevel.Fastest),
        new("Zstandard-1", TranscoderCompression.Zstandard, CompressionLevel.Fastest),
        new("Zstandard-3", TranscoderCompression.Zstandard, CompressionLevel.Optimal),
        new("LZ4-Fast", TranscoderCompression.Lz4, CompressionLevel.Fastest),
        new("LZ4-HC9", TranscoderCompression.Lz4, CompressionLevel.Optimal),
    ];

    /// <summary>Returns the setting of that name.</summary>
    /// <param name="name">A name from <see cref="All"/>.</param>
    /// <returns>The setting.</returns>
    /// <exception cref="ArgumentException">No setting has that name.</exception>
    public static CompressionSetting Get(string name) =>
        All.FirstOrDefault(s => s.Name == name)
        ?? throw new ArgumentException($"No compression setting is named '{name}'; known: {string.Join(", ", All.Select(s => s.Name))}.", nameof(name));

    /// <summary>Returns a transcoder with this setting that compresses every payload it can (threshold 0), for measuring.</summary>
    /// <returns>A new transcoder.</returns>
    public ProtobufTranscoder CreateTranscoder() =>
        new(new ProtobufTranscoderOptions { Compression = Algorithm, CompressionLevel = Level, CompressionThreshold = 0 });

    /// <inheritdoc/>
    public override string ToString() => Name;
}
