using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Reports;
using ZstdSharp;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Reports;

/// <summary>The dictionary experiment's figures (docs/benchmarks.md, "Zstandard dictionaries"), exactly: zstd's trainer and encoder are deterministic.</summary>
public class DictionaryExperimentTests
{
    private static readonly DictionaryExperiment Experiment = DictionaryExperiment.Run();

    [Theory]
    [InlineData("RpcMessage", 108, 108, 91)]
    [InlineData("Records32", 850, 690, 619)]
    [InlineData("Folders", 5_631, 3_754, 3_526)]
    [InlineData("Records1024", 25_228, 15_123, 15_025)]
    [InlineData("LargeObject", 513_842, 164_211, 166_710)]
    public void Run_EveryObjectShape_HasTheMeasuredSizes(string workload, int uncompressed, int withoutDictionary, int withDictionary)
    {
        DictionaryResult result = Experiment.Results.Single(r => r.Workload == workload);

        Assert.Equal(uncompressed, result.Uncompressed);
        Assert.Equal(withoutDictionary, result.WithoutDictionary);
        Assert.Equal(withDictionary, result.WithDictionary);
    }

    [Fact]
    public void Run_MeasuredValue_IsNotAmongTheTrainingSamples()
    {
        // The samples' seeds (at most 1,000 from FirstSampleSeed on) are none of the published workloads' seeds, so the
        // dictionary never holds the value measured.
        ulong[] seeds =
        [
            CacheSerializer.Workloads.Generation.WorkloadFactory.RpcMessageSeed, CacheSerializer.Workloads.Generation.WorkloadFactory.RecordsSeed,
            CacheSerializer.Workloads.Generation.WorkloadFactory.FoldersSeed, CacheSerializer.Workloads.Generation.WorkloadFactory.LargeObjectSeed,
        ];
        Assert.All(seeds, seed => Assert.False(seed - DictionaryExperiment.FirstSampleSeed < 1000, $"seed {seed} is a training seed"));
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None });
        byte[] published = transcoder.Serialize(WorkloadCatalog.Get("RpcMessage").Value).Data.AsSpan().ToArray();
        byte[] firstSample = transcoder.Serialize(CacheSerializer.Workloads.Generation.WorkloadFactory.RpcMessage(DictionaryExperiment.FirstSampleSeed)).Data.AsSpan().ToArray();
        Assert.NotEqual(Convert.ToHexString(published), Convert.ToHexString(firstSample));
    }

    [Fact]
    public void Compress_WithTheDictionary_ReadsBackOnlyWithIt()
    {
        DictionaryResult result = Experiment.Results.Single(r => r.Workload == "Folders");
        byte[] payload = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(WorkloadCatalog.Get("Folders").Value).Data.AsSpan().ToArray();
        byte[] frame = DictionaryExperiment.Compress(payload, 3, result.Dictionary);

        using var withIt = new Decompressor();
        withIt.LoadDictionary(result.Dictionary);
        using var without = new Decompressor();

        Assert.Equal(payload, withIt.Unwrap(frame).ToArray());
        // Without the dictionary zstd fails rather than return other bytes: what a reader missing it would see.
        Assert.ThrowsAny<ZstdException>(() => without.Unwrap(frame).ToArray());
    }
}
