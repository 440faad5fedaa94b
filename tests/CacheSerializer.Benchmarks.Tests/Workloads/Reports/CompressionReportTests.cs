using CacheSerializer.Workloads.Reports;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Reports;

/// <summary>
/// The bytes half of the compression comparison, exactly. Zstandard (ZstdSharp.Port 0.8.8) and LZ4 (K4os 1.3.8) are
/// pinned packages, so their sizes are the contract of this measurement; Brotli's and Deflate's come from the runtime
/// (.NET 10.0) and are asserted as measured, as TranscoderSizeTargetTests does for Brotli.
/// </summary>
public class CompressionReportTests
{
    private static readonly CompressionReport Report = CompressionReport.ForCatalogs();

    [Theory]
    [InlineData("Records32", 728, 799, 805, 691, 690, 814, 811)]
    [InlineData("Records1024", 15_798, 18_235, 18_241, 15_892, 15_123, 18_763, 17_358)]
    [InlineData("Folders", 3_934, 4_121, 4_127, 3_809, 3_754, 4_285, 4_168)]
    [InlineData("LargeObject", 179_596, 213_627, 213_633, 183_096, 164_211, 232_293, 167_029)]
    public void BytesOf_EverySetting_IsTheMeasuredSize(string workload, int brotli, int deflate, int zlib, int zstd1, int zstd3, int lz4, int lz4Hc)
    {
        Assert.Equal(
            [brotli, deflate, zlib, zstd1, zstd3, lz4, lz4Hc],
            CompressionSetting.All.Select(s => Report.BytesOf(workload, s.Name)).ToArray());
    }

    [Theory]
    [InlineData("RpcMessage", 108)]
    [InlineData("EightUInt64s", 62)]
    [InlineData("Records1", 47)]
    public void BytesOf_PayloadsNoSettingMakesSmaller_AreStoredUncompressed(string workload, int uncompressed)
    {
        Assert.All(CompressionSetting.All, s => Assert.Equal(uncompressed, Report.BytesOf(workload, s.Name)));
    }

    [Fact]
    public void ToMarkdown_BothTables_HaveARowPerWorkloadAndTheBaselineAtOne()
    {
        string markdown = Report.ToMarkdown();

        Assert.Contains("| LargeObject | 513,842 | 179,596 | 213,627 | 213,633 | 183,096 | 164,211 | 232,293 | 167,029 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| LargeObject | 2.861 | 1.000 | 1.189 | 1.190 | 1.019 | 0.914 | 1.293 | 0.930 |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Get_UnknownSetting_ThrowsNamingTheKnownOnes()
    {
        ArgumentException e = Assert.Throws<ArgumentException>(() => CompressionSetting.Get("Snappy"));

        Assert.StartsWith("No compression setting is named 'Snappy'; known: Brotli-Fastest, Deflate-Fastest,", e.Message, StringComparison.Ordinal);
    }
}
