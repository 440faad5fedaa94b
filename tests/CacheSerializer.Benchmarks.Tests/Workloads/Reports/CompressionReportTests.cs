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
    [InlineData("Records32", 722, 794, 800, 686, 685, 810, 807)]
    [InlineData("Records1024", 15_784, 18_231, 18_237, 15_883, 15_119, 18_757, 17_354)]
    [InlineData("Folders", 3_937, 4_117, 4_123, 3_804, 3_748, 4_281, 4_164)]
    [InlineData("LargeObject", 179_591, 213_622, 213_628, 183_084, 164_202, 232_248, 167_025)]
    public void BytesOf_EverySetting_IsTheMeasuredSize(string workload, int brotli, int deflate, int zlib, int zstd1, int zstd3, int lz4, int lz4Hc)
    {
        Assert.Equal(
            [brotli, deflate, zlib, zstd1, zstd3, lz4, lz4Hc],
            CompressionSetting.All.Select(s => Report.BytesOf(workload, s.Name)).ToArray());
    }

    [Theory]
    [InlineData("RpcMessage", 104)]
    [InlineData("EightUInt64s", 58)]
    [InlineData("Records1", 43)]
    public void BytesOf_PayloadsNoSettingMakesSmaller_AreStoredUncompressed(string workload, int uncompressed)
    {
        Assert.All(CompressionSetting.All, s => Assert.Equal(uncompressed, Report.BytesOf(workload, s.Name)));
    }

    [Fact]
    public void ToMarkdown_BothTables_HaveARowPerWorkloadAndTheBaselineAtOne()
    {
        string markdown = Report.ToMarkdown();

        Assert.Contains("| LargeObject | 513,838 | 179,591 | 213,622 | 213,628 | 183,084 | 164,202 | 232,248 | 167,025 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| LargeObject | 2.861 | 1.000 | 1.189 | 1.190 | 1.019 | 0.914 | 1.293 | 0.930 |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Get_UnknownSetting_ThrowsNamingTheKnownOnes()
    {
        var e = Assert.Throws<ArgumentException>(() => CompressionSetting.Get("Snappy"));

        Assert.StartsWith("No compression setting is named 'Snappy'; known: Brotli-Fastest, Deflate-Fastest,", e.Message, StringComparison.Ordinal);
    }
}
