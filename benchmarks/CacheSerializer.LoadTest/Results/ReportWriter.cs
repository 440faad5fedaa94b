using System.Globalization;
using System.Text;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Workloads.Charts;
using CacheSerializer.Workloads.Contenders;
using Spectre.Console;

namespace CacheSerializer.LoadTest.Results;

/// <summary>Turns a report into the final console table, a Markdown table, the JSON file and the SVG chart.</summary>
internal static class ReportWriter
{
    /// <summary>The columns of the speed table: header, and the cell of one pass.</summary>
    private static readonly Column[] SpeedColumns =
    [
        new("Contender", (_, p) => p.Contender),
        new("ops/s", (_, p) => N(p.OperationsPerSecond)),
        new("req/min", (_, p) => N(p.RequestsPerMinute)),
        new("p50 ms", (_, p) => Ms(p.LatencyMicroseconds.P50)),
        new("p95 ms", (_, p) => Ms(p.LatencyMicroseconds.P95)),
        new("p99 ms", (_, p) => Ms(p.LatencyMicroseconds.P99)),
        new("CPU µs/op", (_, p) => N(p.ClientCpuMicrosecondsPerOperation)),
        new("codec µs/op", (_, p) => p.TranscoderCpuMicrosecondsPerOperation is double codec ? N(codec) : "-"),
        new("errors", (_, p) => N(p.Errors)),
        new("corruptions", (_, p) => N(p.Corruptions)),
        new("lost writes", (_, p) => p.LostWrites is long lost ? N(lost) : "-"),
        new("ops/s vs BSON", (r, p) => Ratio(r, p, ContenderCatalog.Bson, x => x.OperationsPerSecond)),
        new("ops/s vs BF", (r, p) => Ratio(r, p, ContenderCatalog.BinaryFormatter, x => x.OperationsPerSecond)),
        new("ops/s vs BF+Deflate", (r, p) => Ratio(r, p, ContenderCatalog.DeflateBinaryFormatter, x => x.OperationsPerSecond)),
    ];

    /// <summary>The columns of the size table.</summary>
    private static readonly Column[] SizeColumns =
    [
        new("Contender", (_, p) => p.Contender),
        new("hit %", (_, p) => p.Gets == 0 ? "-" : (100.0 * p.Hits / p.Gets).ToString("0", CultureInfo.InvariantCulture)),
        new("net KB/op", (_, p) => Kb(p.ClientBytesPerOperation)),
        new("mc MB", (_, p) => (p.Server.Bytes / 1048576.0).ToString("#,0.0", CultureInfo.InvariantCulture)),
        new("items", (_, p) => N(p.Server.CurrentItems)),
        new("mc KB/item", (_, p) => Kb(p.ServerBytesPerItem)),
        new("written KB avg/p99", (_, p) => $"{Kb(p.ItemSizeBytes.Mean)} / {Kb(p.ItemSizeBytes.P99)}"),
        new("evict", (_, p) => N(p.Server.Evictions)),
        new("bytes vs BSON", (r, p) => Ratio(r, p, ContenderCatalog.Bson, x => x.ServerBytesPerItem)),
        new("bytes vs BF", (r, p) => Ratio(r, p, ContenderCatalog.BinaryFormatter, x => x.ServerBytesPerItem)),
        new("bytes vs BF+Deflate", (r, p) => Ratio(r, p, ContenderCatalog.DeflateBinaryFormatter, x => x.ServerBytesPerItem)),
    ];

    /// <summary>The columns of the fault table (fault mode only): the outage's effect and the recovery.</summary>
    private static readonly Column[] FaultColumns =
    [
        new("Contender", (_, p) => p.Contender),
        new("killed s", (_, p) => S(p.Fault?.KilledAt)),
        new("restarted s", (_, p) => S(p.Fault?.RestartedAt)),
        new("hit % before", (_, p) => Percent(p.Fault?.HitRatioBefore)),
        new("hit % down", (_, p) => Percent(p.Fault?.HitRatioWhileDown)),
        new("hit % after", (_, p) => Percent(p.Fault?.HitRatioAfter)),
        new("failed sets", (_, p) => N(p.StoreFailures)),
        new("errors", (_, p) => N(p.Errors)),
        new("failing seconds", (_, p) => p.Fault is null ? "-" : N(p.Fault.FailingSeconds)),
        new("last failure s", (_, p) => p.Fault?.LastFailingSecond is int last ? N(last) : "none"),
        new("recovered s after restart", (_, p) => S(p.Fault?.RecoveredAfterRestart)),
    ];

    /// <summary>Returns the result tables for the console: speed, then size and traffic, then (fault mode) the outage.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The tables.</returns>
    public static IReadOnlyList<Table> ToTables(LoadTestReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        List<Table> tables = [Table(report, "Throughput and latency", SpeedColumns), Table(report, "memcached size and traffic", SizeColumns, caption: true)];
        if (report.Passes.Any(p => p.Fault is not null))
        {
            tables.Add(Table(report, "Fault: one server killed and restarted", FaultColumns));
        }

        return tables;
    }

    /// <summary>Returns the result tables as Markdown, followed by the machine line.</summary>
    /// <param name="report">The report.</param>
    /// <returns>The Markdown text.</returns>
    public static string ToMarkdown(LoadTestReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var text = new StringBuilder();
        bool faults = report.Passes.Any(p => p.Fault is not null);
        foreach (Column[] columns in faults ? new[] { SpeedColumns, SizeColumns, FaultColumns } : new[] { SpeedColumns, SizeColumns })
        {
            text.Append("| ").AppendJoin(" | ", columns.Select(c => c.Header)).AppendLine(" |");
            text.Append('|').AppendJoin('|', columns.Select(c => c.Header == "Contender" ? "---" : "---:")).AppendLine("|");
            foreach (PassResult pass in report.Passes)
            {
                text.Append("| ").AppendJoin(" | ", columns.Select(c => c.Cell(report, pass))).AppendLine(" |");
            }

            text.AppendLine();
        }

        foreach (PassResult pass in report.Passes.Where(p => p.Server.Unavailable.Count > 0 || p.Server.Restarted.Count > 0))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {pass.Contender}: memcached stats {(pass.Server.Unavailable.Count > 0 ? $"unavailable for {string.Join(", ", pass.Server.Unavailable)} (down when read at the end of the pass)" : string.Empty)}{(pass.Server.Restarted.Count > 0 ? $"counted since the restart of {string.Join(", ", pass.Server.Restarted)}" : string.Empty)}.");
        }

        if (faults)
        {
            text.AppendLine();
            AppendTimelines(text, report);
        }

        text.AppendLine(CultureInfo.InvariantCulture, $"{report.Started:yyyy-MM-dd HH:mm} UTC; {report.Machine}; load average {report.LoadAverage}; memcached {report.Servers}.");
        if (report.Repeat is { } repeat && report.Readability is { } readability)
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"Repeat of {repeat.Contender}: {N(repeat.OperationsPerSecond)} ops/s against {N(readability.FirstOperationsPerSecond)} (coefficient of variation {(readability.Variation ?? 0) * 100:0.0}%).");
        }

        foreach (string warning in report.Readability?.Warnings ?? [])
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"**Warning: the throughput ratios of this run cannot be read:** {warning}.");
        }

        return text.ToString();
    }

    /// <summary>
    /// Returns the chart: throughput, memcached bytes per item and p99 latency of every contender, relative to BSON and
    /// to BinaryFormatter + Deflate (the production team's original), each where that baseline was run.
    /// </summary>
    /// <param name="report">The report.</param>
    /// <returns>The chart; empty when neither baseline was run.</returns>
    public static SvgBarChart ToChart(LoadTestReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var chart = new SvgBarChart($"Load test, relative to a baseline (= 1): {report.Started:yyyy-MM-dd}, {report.Passes.Count} contenders", "x baseline") { AxisMaximum = 3 };
        foreach (string baselineName in new[] { ContenderCatalog.Bson, ContenderCatalog.DeflateBinaryFormatter })
        {
            PassResult? baseline = report.Passes.FirstOrDefault(p => p.Contender == baselineName);
            if (baseline is null)
            {
                continue;
            }

            AddGroup(chart, report, $"Throughput, ops/s, x {baselineName} (higher is better)", baseline, p => p.OperationsPerSecond);
            AddGroup(chart, report, $"memcached bytes per item, x {baselineName} (lower is better)", baseline, p => p.ServerBytesPerItem);
            AddGroup(chart, report, $"p99 latency, x {baselineName} (lower is better)", baseline, p => p.LatencyMicroseconds.P99);
        }

        return chart;
    }

    /// <summary>Writes <c>loadtest-&lt;start time&gt;</c> .json and .md (as every scenario's) and .svg into the output directory.</summary>
    /// <param name="report">The report.</param>
    /// <param name="directory">The directory, created when missing.</param>
    /// <returns>The paths written.</returns>
    public static IReadOnlyList<string> Save(LoadTestReport report, string directory)
    {
        ArgumentNullException.ThrowIfNull(report);
        IReadOnlyList<string> written = ScenarioReportWriter.Save("loadtest", report.Started, report, ToMarkdown(report), directory);
        string svg = Path.ChangeExtension(written[0], ".svg");
        ToChart(report).Save(svg);
        return [.. written, svg];
    }

    /// <summary>Each faulted pass second by second: the outage and the recovery as they happened.</summary>
    private static void AppendTimelines(StringBuilder text, LoadTestReport report)
    {
        foreach (PassResult pass in report.Passes.Where(p => p.Fault is not null))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"{pass.Contender}, second by second ({string.Join("; ", pass.Fault!.Events)}):");
            text.AppendLine();
            text.AppendLine("| s | ops | hits | misses | hit % | failed sets | errors |");
            text.AppendLine("|---:|---:|---:|---:|---:|---:|---:|");
            foreach (TimelineSecond second in pass.Timeline)
            {
                long gets = second.Hits + second.Misses;
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {second.Second} | {N(second.Operations)} | {N(second.Hits)} | {N(second.Misses)} | {(gets == 0 ? "-" : Percent((double)second.Hits / gets))} | {N(second.StoreFailures)} | {N(second.Errors)} |");
            }

            text.AppendLine();
        }
    }

    private static string S(double? seconds) => seconds is double s ? s.ToString("0.0", CultureInfo.InvariantCulture) : "-";

    private static string Percent(double? ratio) => ratio is double r ? (100 * r).ToString("0", CultureInfo.InvariantCulture) : "-";

    private static Table Table(LoadTestReport report, string title, Column[] columns, bool caption = false)
    {
        Table table = new Table().Border(TableBorder.Rounded).Title(title);
        foreach (Column column in columns)
        {
            table.AddColumn(new TableColumn(Markup.Escape(column.Header)) { Alignment = column.Header == "Contender" ? Justify.Left : Justify.Right });
        }

        foreach (PassResult pass in report.Passes)
        {
            table.AddRow(columns.Select(c => Markup.Escape(c.Cell(report, pass))).ToArray());
        }

        if (caption)
        {
            table.Caption($"{Markup.Escape(report.Machine)}; load {Markup.Escape(report.LoadAverage)}");
        }

        return table;
    }

    private static void AddGroup(SvgBarChart chart, LoadTestReport report, string group, PassResult bson, Func<PassResult, double> figure)
    {
        double baseline = figure(bson);
        foreach (PassResult pass in report.Passes)
        {
            chart.Add(group, pass.Contender, baseline > 0 ? figure(pass) / baseline : 0);
        }
    }

    private static string Ratio(LoadTestReport report, PassResult pass, string baselineName, Func<PassResult, double> figure)
    {
        PassResult? baseline = report.Passes.FirstOrDefault(p => p.Contender == baselineName);
        double reference = baseline is null ? 0 : figure(baseline);
        return reference > 0 ? (figure(pass) / reference).ToString("0.00", CultureInfo.InvariantCulture) + "x" : "n/a";
    }

    private static string N(double value) => value.ToString("#,0", CultureInfo.InvariantCulture);

    private static string Ms(long microseconds) => (microseconds / 1000.0).ToString(microseconds < 10_000 ? "0.00" : "#,0.0", CultureInfo.InvariantCulture);

    private static string Kb(double bytes) => (bytes / 1024).ToString(bytes < 10 * 1024 ? "0.00" : "#,0.0", CultureInfo.InvariantCulture);

    /// <summary>One column of a result table.</summary>
    /// <param name="Header">The header.</param>
    /// <param name="Cell">The cell of one pass.</param>
    private sealed record Column(string Header, Func<LoadTestReport, PassResult, string> Cell);
}
