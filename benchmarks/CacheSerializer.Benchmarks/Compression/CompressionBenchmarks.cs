using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using CacheSerializer.Transcoding;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Reports;

namespace CacheSerializer.Benchmarks.Compression;

/// <summary>
/// The CPU half of the compression comparison (issue 18): compress, decompress, and both, of each object workload's
/// uncompressed payload (type header and protobuf-net body, as the transcoder compresses it), for every
/// <see cref="CompressionSetting"/>; Brotli at Fastest, the setting used before, is the baseline. The bytes half is the
/// <c>compression</c> command (<see cref="CompressionReport"/>).
/// </summary>
/// <remarks>
/// Calls the transcoder's own compressor (<see cref="PayloadCompressor"/>) with the limits of the default options, so the
/// figures are exactly what a Serialize or a Deserialize adds to an uncompressed one. The setup checks the round trip.
/// </remarks>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class CompressionBenchmarks
{
    private ArraySegment<byte> _payload;
    private byte[] _compressed = [];
    private CompressionSetting _setting = CompressionSetting.All[0];

    /// <summary>Gets or sets the workload.</summary>
    [Params("Records32", "Records1024", "Folders", "LargeObject")]
    public string Workload { get; set; } = "Folders";

    /// <summary>Gets or sets the setting's name.</summary>
    [ParamsSource(nameof(SettingNames))]
    public string Setting { get; set; } = "Brotli-Fastest";

    /// <summary>Gets the settings measured (ZLib is Deflate with a checksum, so it is left out).</summary>
    public static IEnumerable<string> SettingNames => CompressionSetting.All.Where(s => s.Algorithm != TranscoderCompression.ZLib).Select(s => s.Name);

    [GlobalSetup]
    public void Setup()
    {
        _setting = CompressionSetting.Get(Setting);
        _payload = new ArraySegment<byte>(new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(WorkloadCatalog.Get(Workload).Value).Data.AsSpan().ToArray());
        _compressed = Compress().ToArray();
        ReadOnlyMemory<byte> back = PayloadCompressor.Decompress(_compressed, 0x0192, ProtobufTranscoderOptions.DefaultMaxValueSize, 64, out byte[]? rented);
        bool same = back.Span.SequenceEqual(_payload);
        Release(rented);
        if (!same)
        {
            throw new InvalidOperationException($"{Setting} did not round-trip {Workload}.");
        }
    }

    [Benchmark(Description = "Compress")]
    [BenchmarkCategory("Compress")]
    public int CompressOnly() => Compress().Count;

    [Benchmark(Description = "Decompress")]
    [BenchmarkCategory("Decompress")]
    public int DecompressOnly() => Decompress(_compressed);

    [Benchmark(Description = "Compress+Decompress")]
    [BenchmarkCategory("Both")]
    public int Both()
    {
        return Decompress(Compress());
    }

    private ArraySegment<byte> Compress() =>
        PayloadCompressor.TryCompress(_payload, _setting.Algorithm, _setting.Level, ProtobufTranscoderOptions.DefaultMaxValueSize, 64)
        ?? throw new InvalidOperationException($"{Setting} does not make {Workload} smaller.");

    // As the transcoder reads: into a pooled array (Zstandard, LZ4), given back once read.
    private static int Decompress(ReadOnlyMemory<byte> compressed)
    {
        int length = PayloadCompressor.Decompress(compressed, 0x0192, ProtobufTranscoderOptions.DefaultMaxValueSize, 64, out byte[]? rented).Length;
        Release(rented);
        return length;
    }

    private static void Release(byte[]? rented)
    {
        if (rented is not null)
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
