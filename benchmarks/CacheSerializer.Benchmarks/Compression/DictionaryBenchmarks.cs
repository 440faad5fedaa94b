using BenchmarkDotNet.Attributes;
using CacheSerializer.Workloads.Reports;
using ZstdSharp;
using ZstdSharp.Unsafe;

namespace CacheSerializer.Benchmarks.Compression;

/// <summary>
/// The CPU half of the dictionary experiment (<see cref="DictionaryExperiment"/>): compress then decompress the published
/// workload's payload with Zstandard level 3, per item (the baseline) and with the dictionary trained for its type.
/// Contexts are reused, and the dictionary loaded into them once, as a package keeping per-type contexts would.
/// </summary>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class DictionaryBenchmarks
{
    private byte[] _payload = [];
    private byte[] _output = [];
    private byte[] _frame = [];
    private Compressor _plain = null!;
    private Compressor _withDictionary = null!;
    private Decompressor _plainReader = null!;
    private Decompressor _dictionaryReader = null!;

    /// <summary>Gets or sets the workload.</summary>
    [Params("RpcMessage", "Records32", "Folders")]
    public string Workload { get; set; } = "Folders";

    [GlobalSetup]
    public void Setup()
    {
        DictionaryResult result = DictionaryExperiment.Run().Results.Single(r => r.Workload == Workload);
        _payload = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(CacheSerializer.Workloads.WorkloadCatalog.Get(Workload).Value).Data.AsSpan().ToArray();
        _output = new byte[Compressor.GetCompressBound(_payload.Length)];
        _frame = new byte[_payload.Length];
        _plain = new Compressor(3);
        _plain.SetParameter(ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
        _withDictionary = new Compressor(3);
        _withDictionary.SetParameter(ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
        _withDictionary.LoadDictionary(result.Dictionary);
        _plainReader = new Decompressor();
        _dictionaryReader = new Decompressor();
        _dictionaryReader.LoadDictionary(result.Dictionary);
    }

    [Benchmark(Baseline = true, Description = "Zstandard-3 per item")]
    public int PerItem() => RoundTrip(_plain, _plainReader);

    [Benchmark(Description = "Zstandard-3 + dictionary")]
    public int WithDictionary() => RoundTrip(_withDictionary, _dictionaryReader);

    private int RoundTrip(Compressor compressor, Decompressor decompressor)
    {
        int written = compressor.Wrap(_payload, _output);
        return decompressor.Unwrap(_output.AsSpan(0, written), _frame);
    }
}
