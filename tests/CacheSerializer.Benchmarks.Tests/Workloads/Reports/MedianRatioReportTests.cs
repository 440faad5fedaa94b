using CacheSerializer.Workloads.Reports;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Reports;

public class MedianRatioReportTests
{
    // The shape BenchmarkDotNet 0.14 writes (columns trimmed): quoted cells where the value has a thousands separator.
    private const string Csv =
        "Method,Job,Workload,Mean,Median,Ratio\n" +
        "BSON,Job-A,RpcMessage,\"1,200.0 ns\",\"1,000.0 ns\",1.00\n" +
        "CacheSerializer,Job-A,RpcMessage,300.0 ns,250.0 ns,0.25\n" +
        "BSON,Job-A,LargeObject,6.000 ms,5.000 ms,1.00\n" +
        "CacheSerializer,Job-A,LargeObject,\"1,600.0 us\",\"1,500.0 μs\",0.27\n";

    [Fact]
    public void Ratio_MediansInDifferentUnits_IsTheirQuotient()
    {
        var report = MedianRatioReport.Parse(Csv, "BSON");

        Assert.Equal(["RpcMessage", "LargeObject"], report.Workloads);
        Assert.Equal(["BSON", "CacheSerializer"], report.Methods);
        Assert.Equal(0.25, report.Ratio("RpcMessage", "CacheSerializer"));
        Assert.Equal(0.3, report.Ratio("LargeObject", "CacheSerializer")!.Value, 12);
        Assert.Null(report.Ratio("Folders", "CacheSerializer"));
    }

    [Fact]
    public void ToMarkdown_TwoWorkloads_IsOneRowEach()
    {
        string table = MedianRatioReport.Parse(Csv, "BSON").ToMarkdown();

        Assert.Equal(
            "| Workload | BSON | CacheSerializer |\n|---|---:|---:|\n| RpcMessage | 1.00x | 0.25x |\n| LargeObject | 1.00x | 0.30x |\n",
            table);
    }

    [Fact]
    public void Ratio_NoMedianColumn_DividesMeans()
    {
        // BenchmarkDotNet drops the Median column when every median equals its mean.
        var report = MedianRatioReport.Parse("Method,Workload,Mean\nBSON,A,8.0 ns\nOurs,A,2.0 ns\n", "BSON");

        Assert.Equal(0.25, report.Ratio("A", "Ours"));
    }

    [Fact]
    public void Parse_NoTimeColumn_ThrowsFormatException()
    {
        FormatException e = Assert.Throws<FormatException>(() => MedianRatioReport.Parse("Method,Workload,Ratio\nBSON,A,1.00\n", "BSON"));

        Assert.Contains("'Mean'", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_UnknownUnit_ThrowsFormatException()
    {
        Assert.Throws<FormatException>(() => MedianRatioReport.Parse("Method,Workload,Median\nBSON,A,1 fortnights\n", "BSON"));
    }
}
