using CacheSerializer.LoadTest.Floor;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Floor;

public sealed class CompressionFloorTests
{
    [Fact]
    public async Task MeasureAsync_CatAsTheCompressor_SumsEachItemAloneBesideEachContendersOwnBytes()
    {
        // cat writes its input back: the tool column must be exactly the uncompressed items' sum, piped one item per
        // process, and each contender's column exactly its transcoder's bytes for the same values.
        var mix = ValueMix.CreateDefault(keys: 12, seed: 20261122);
        Contender[] contenders = [ContenderCatalog.Get(ContenderCatalog.DeflateBinaryFormatter), ContenderCatalog.Get(ContenderCatalog.CacheSerializer, 2 * 1024 * 1024)];
        ITranscoder plain = ContenderCatalog.Get(ContenderCatalog.CacheSerializerUncompressed, 8 * 1024 * 1024).Transcoder;
        long Sum(ITranscoder transcoder) => Enumerable.Range(0, mix.Keys).Sum(k => (long)transcoder.Serialize(mix.ShapeOf(k).Create(mix.VariantOf(k), k + 1)).Data.Count);

        IReadOnlyList<(string Name, long Bytes)> totals = await CompressionFloor.MeasureAsync(mix, contenders, [("cat", "cat", "")], TextWriter.Null, CancellationToken.None);

        Assert.Equal(
            [(ContenderCatalog.DeflateBinaryFormatter, Sum(contenders[0].Transcoder)), (ContenderCatalog.CacheSerializer, Sum(contenders[1].Transcoder)), ("cat", Sum(plain))],
            totals);
        Assert.True(totals[1].Bytes < totals[2].Bytes, "the defaults compress the object payloads");
    }

    [Fact]
    public async Task MeasureAsync_MissingCompressor_SaysHowToInstallIt()
    {
        var mix = ValueMix.CreateDefault(keys: 1, seed: 1);

        InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            CompressionFloor.MeasureAsync(mix, [], [("none", "no-such-compressor-cacheserializer", "")], TextWriter.Null, CancellationToken.None));

        Assert.StartsWith("no-such-compressor-cacheserializer is not installed (scripts/floor.sh installs xz-utils and zstd)", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ToMarkdown_Totals_BytesPerItemAndRatioToTheFirst()
    {
        string table = CompressionFloor.ToMarkdown([("BinaryFormatter+Deflate", 2048), ("xz -9e", 1024)], keys: 2);

        Assert.Equal(
            "| Items (2, each alone) | bytes | KB/item | vs BinaryFormatter+Deflate |\n|---|---:|---:|---:|\n"
            + "| BinaryFormatter+Deflate | 2,048 | 1.0 | 1.00x |\n| xz -9e | 1,024 | 0.5 | 0.50x |\n",
            table.ReplaceLineEndings("\n"));
    }
}
