using System.Globalization;
using System.Text;
using CacheSerializer.Workloads.Charts;

namespace CacheSerializer.Workloads.Reports;

/// <summary>
/// Median times relative to the baseline, per workload and contender, read from a BenchmarkDotNet <c>*-report.csv</c>.
/// </summary>
/// <remarks>
/// BenchmarkDotNet's <c>Ratio</c> column divides means. On a shared machine a few slow iterations move a mean far more
/// than a median, so the docs quote both: BenchmarkDotNet's own tables, and this ratio of medians.
/// </remarks>
public sealed class MedianRatioReport
{
    private readonly Dictionary<(string Workload, string Method), double> _medians;

    private MedianRatioReport(string baseline, List<string> workloads, List<string> methods, Dictionary<(string, string), double> medians)
    {
        Baseline = baseline;
        Workloads = workloads;
        Methods = methods;
        _medians = medians;
    }

    /// <summary>Gets the method every ratio is relative to.</summary>
    public string Baseline { get; }

    /// <summary>Gets the workloads, in the order the report lists them.</summary>
    public IReadOnlyList<string> Workloads { get; }

    /// <summary>Gets the methods (contenders), in the order the report lists them.</summary>
    public IReadOnlyList<string> Methods { get; }

    /// <summary>
    /// Reads a BenchmarkDotNet CSV report with <c>Method</c>, <c>Workload</c> and <c>Median</c> columns; BenchmarkDotNet
    /// leaves <c>Median</c> out when no row's median differs from its mean, and then <c>Mean</c> is read instead.
    /// </summary>
    /// <param name="csv">The CSV text (comma-separated, values with commas quoted, as BenchmarkDotNet writes it).</param>
    /// <param name="baseline">The method the ratios are relative to.</param>
    /// <returns>The report.</returns>
    /// <exception cref="FormatException">A column is missing (Median and Mean both), or a time has no known unit.</exception>
    public static MedianRatioReport Parse(string csv, string baseline)
    {
        ArgumentNullException.ThrowIfNull(csv);
        ArgumentNullException.ThrowIfNull(baseline);
        string[] lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (lines.Length == 0)
        {
            throw new FormatException("The CSV report is empty.");
        }

        List<string> header = SplitCsvLine(lines[0]);
        int method = Column(header, "Method"), workload = Column(header, "Workload");
        int median = header.Contains("Median") ? Column(header, "Median") : Column(header, "Mean");
        var workloads = new List<string>();
        var methods = new List<string>();
        var medians = new Dictionary<(string, string), double>();
        foreach (string line in lines.Skip(1))
        {
            List<string> cells = SplitCsvLine(line);
            string w = cells[workload], m = cells[method];
            if (!workloads.Contains(w))
            {
                workloads.Add(w);
            }

            if (!methods.Contains(m))
            {
                methods.Add(m);
            }

            medians[(w, m)] = ParseNanoseconds(cells[median]);
        }

        return new MedianRatioReport(baseline, workloads, methods, medians);
    }

    /// <summary>Returns a method's median divided by the baseline's median on one workload.</summary>
    /// <param name="workload">The workload.</param>
    /// <param name="method">The method.</param>
    /// <returns>The ratio, or <see langword="null"/> when either was not measured.</returns>
    public double? Ratio(string workload, string method) =>
        _medians.TryGetValue((workload, method), out double time) && _medians.TryGetValue((workload, Baseline), out double baseline) && baseline > 0
            ? time / baseline
            : null;

    /// <summary>Writes the ratios as a Markdown table, one row per workload, one column per method.</summary>
    /// <returns>The table.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.Append("| Workload |");
        foreach (string m in Methods)
        {
            text.Append(' ').Append(m).Append(" |");
        }

        text.Append("\n|---|").Append(string.Concat(Enumerable.Repeat("---:|", Methods.Count))).Append('\n');
        foreach (string w in Workloads)
        {
            text.Append("| ").Append(w).Append(" |");
            foreach (string m in Methods)
            {
                text.Append(' ').Append(Ratio(w, m) is double r ? r.ToString("0.00", CultureInfo.InvariantCulture) + "x" : "-").Append(" |");
            }

            text.Append('\n');
        }

        return text.ToString();
    }

    /// <summary>Draws the ratios as grouped bars (one group per workload).</summary>
    /// <param name="title">The chart's title.</param>
    /// <returns>The chart; the axis stops at 3x, longer bars are cut and keep their value.</returns>
    public SvgBarChart ToChart(string title)
    {
        var chart = new SvgBarChart(title, $"x {Baseline}") { AxisMaximum = 3, NumberFormat = "0.00" };
        foreach (string w in Workloads)
        {
            foreach (string m in Methods)
            {
                if (Ratio(w, m) is double r)
                {
                    chart.Add(w, m, r);
                }
            }
        }

        return chart;
    }

    private static int Column(List<string> header, string name)
    {
        int index = header.IndexOf(name);
        return index >= 0 ? index : throw new FormatException($"The CSV report has no '{name}' column.");
    }

    // BenchmarkDotNet writes times as "1,234.5 ns", "12.3 us" (or μs), "4.5 ms", "1.2 s", in the invariant culture.
    private static double ParseNanoseconds(string cell)
    {
        int space = cell.LastIndexOf(' ');
        if (space < 0)
        {
            throw new FormatException($"The time '{cell}' has no unit.");
        }

        double scale = cell[(space + 1)..] switch
        {
            "ns" => 1,
            "us" or "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            var unit => throw new FormatException($"The time '{cell}' has an unknown unit '{unit}'."),
        };
        return double.Parse(cell[..space], NumberStyles.Number, CultureInfo.InvariantCulture) * scale;
    }

    private static List<string> SplitCsvLine(string line)
    {
        var cells = new List<string>();
        var cell = new StringBuilder();
        bool quoted = false;
        foreach (char c in line)
        {
            if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                cells.Add(cell.ToString());
                cell.Clear();
            }
            else
            {
                cell.Append(c);
            }
        }

        cells.Add(cell.ToString());
        return cells;
    }
}
