using System.Xml.Linq;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Reports;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Reports;

public class SizeReportTests
{
    [Fact]
    public void ToMarkdown_Catalogs_HasAColumnPerContenderAndARowPerWorkloadInBothTables()
    {
        string markdown = SizeReport.ForCatalogs().ToMarkdown();
        string[] lines = markdown.Split('\n', StringSplitOptions.TrimEntries);

        string header = "| Workload | " + string.Join(" | ", ContenderCatalog.All.Select(c => c.Name)) + " |";
        Assert.Equal(2, lines.Count(l => l == header));
        foreach (Workload workload in WorkloadCatalog.All)
        {
            Assert.Equal(2, lines.Count(l => l.StartsWith($"| {workload.Name} |", StringComparison.Ordinal)));
        }
    }

    [Fact]
    public void ToMarkdown_RpcMessage_ShowsBytesAndRatiosToTheBaseline()
    {
        var report = new SizeReport(
            [WorkloadCatalog.Get("RpcMessage")],
            [ContenderCatalog.Get(ContenderCatalog.Bson), ContenderCatalog.Get(ContenderCatalog.GoogleProtobuf)]);

        string markdown = report.ToMarkdown();

        // 99 / 154 = 0.643 (both sizes are worked out in ContenderSizeTests).
        Assert.Contains("| RpcMessage | 154 | 99 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| RpcMessage | 1.00x | 0.64x |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void ToMarkdown_ContenderThatRefusesTheValue_ShowsNotApplicable()
    {
        // Google.Protobuf handed the POCO rather than its generated message refuses it.
        var pocoProtobuf = new Contender("protobuf-poco", new GoogleProtobufTranscoder(), ContenderInput.Value);
        var report = new SizeReport([WorkloadCatalog.Get("EightUInt64s")], [ContenderCatalog.Get(ContenderCatalog.Bson), pocoProtobuf]);

        Assert.Null(report.BytesOf(WorkloadCatalog.Get("EightUInt64s"), pocoProtobuf));
        Assert.Contains("| EightUInt64s | 93 | n/a |", report.ToMarkdown(), StringComparison.Ordinal);
    }

    [Fact]
    public void ToChart_TwoWorkloadsThreeContenders_DrawsSixBarsOfTheRatios()
    {
        var report = new SizeReport(
            [WorkloadCatalog.Get("RpcMessage"), WorkloadCatalog.Get("Records32")],
            [ContenderCatalog.Get(ContenderCatalog.Bson), ContenderCatalog.Get(ContenderCatalog.SystemTextJson), ContenderCatalog.Get(ContenderCatalog.GoogleProtobuf)]);

        var svg = XDocument.Parse(report.ToChart().ToSvg());

        XNamespace ns = "http://www.w3.org/2000/svg";
        Assert.Equal(6, svg.Descendants(ns + "rect").Count(r => ((string?)r.Attribute("class"))?.StartsWith("bar", StringComparison.Ordinal) == true));
        Assert.Contains(svg.Descendants(ns + "text"), t => t.Value == "0.64 x BSON");
    }
}
