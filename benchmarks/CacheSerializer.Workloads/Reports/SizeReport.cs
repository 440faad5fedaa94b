using System.Globalization;
using System.Text;
using CacheSerializer.Workloads.Charts;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Workloads.Reports;

/// <summary>The payload bytes of every workload through every contender: deterministic, so measured without timing.</summary>
/// <remarks>
/// Rows are workloads and columns contenders, both in catalog order, so a contender added to <see cref="ContenderCatalog.All"/>
/// appears as a new column with no change here. A contender that cannot store a workload shows "n/a".
/// </remarks>
public sealed class SizeReport
{
    private readonly int?[,] _bytes;

    /// <summary>Measures every pair by serializing once.</summary>
    /// <param name="workloads">The rows.</param>
    /// <param name="contenders">The columns.</param>
    public SizeReport(IReadOnlyList<Workload> workloads, IReadOnlyList<Contender> contenders)
    {
        Workloads = workloads ?? throw new ArgumentNullException(nameof(workloads));
        Contenders = contenders ?? throw new ArgumentNullException(nameof(contenders));
        _bytes = new int?[workloads.Count, contenders.Count];
        for (int w = 0; w < workloads.Count; w++)
        {
            for (int c = 0; c < contenders.Count; c++)
            {
                _bytes[w, c] = Measure(workloads[w], contenders[c]);
            }
        }
    }

    /// <summary>Gets the workloads (rows).</summary>
    public IReadOnlyList<Workload> Workloads { get; }

    /// <summary>Gets the contenders (columns).</summary>
    public IReadOnlyList<Contender> Contenders { get; }

    /// <summary>Measures every workload and contender of the catalogs.</summary>
    /// <returns>The report.</returns>
    public static SizeReport ForCatalogs() => new(WorkloadCatalog.All, ContenderCatalog.All);

    /// <summary>Returns the payload bytes of one pair.</summary>
    /// <param name="workload">A workload of the report.</param>
    /// <param name="contender">A contender of the report.</param>
    /// <returns>The bytes, or <see langword="null"/> when the contender cannot store the workload.</returns>
    public int? BytesOf(Workload workload, Contender contender) =>
        _bytes[IndexOf(Workloads, workload, nameof(workload)), IndexOf(Contenders, contender, nameof(contender))];

    /// <summary>Returns the payload bytes a contender writes for a workload.</summary>
    /// <param name="workload">The workload.</param>
    /// <param name="contender">The contender.</param>
    /// <returns>The bytes, or <see langword="null"/> when the contender refuses the value.</returns>
    public static int? Measure(Workload workload, Contender contender)
    {
        ArgumentNullException.ThrowIfNull(workload);
        ArgumentNullException.ThrowIfNull(contender);
        try
        {
            return contender.Transcoder.Serialize(workload.InputFor(contender.Input)).Data.Count;
        }
        catch (CacheSerializerException)
        {
            return null;
        }
    }

    /// <summary>Writes the bytes table, then the same figures as ratios to the first contender (the baseline), in Markdown.</summary>
    /// <returns>The Markdown text.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("Payload bytes (flags not counted):").AppendLine();
        AppendTable(text, (w, c) => _bytes[w, c] is int n ? n.ToString("#,0", CultureInfo.InvariantCulture) : "n/a");
        text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"Bytes relative to {Contenders[0].Name}:").AppendLine();
        AppendTable(text, (w, c) => Ratio(w, c) is double r ? r.ToString("0.00", CultureInfo.InvariantCulture) + "x" : "n/a");
        text.AppendLine().AppendLine("For object workloads the plain copy is handed the protobuf encoding, so it equals Google.Protobuf by construction.");
        return text.ToString();
    }

    /// <summary>Draws the ratios to the baseline as a bar chart, one group per workload.</summary>
    /// <returns>The chart; its axis stops at 3x, longer bars are cut and keep their value as label.</returns>
    public SvgBarChart ToChart()
    {
        var chart = new SvgBarChart($"Stored bytes relative to {Contenders[0].Name} (lower is smaller)", $"x {Contenders[0].Name}")
        {
            AxisMaximum = 3,
            NumberFormat = "0.00",
        };
        for (int w = 0; w < Workloads.Count; w++)
        {
            for (int c = 0; c < Contenders.Count; c++)
            {
                if (Ratio(w, c) is double ratio)
                {
                    chart.Add(Workloads[w].Name, Contenders[c].Name, ratio);
                }
            }
        }

        return chart;
    }

    private double? Ratio(int w, int c) =>
        _bytes[w, c] is int n && _bytes[w, 0] is int baseline && baseline > 0 ? (double)n / baseline : null;

    private void AppendTable(StringBuilder text, Func<int, int, string> cell)
    {
        text.Append("| Workload |");
        foreach (Contender contender in Contenders)
        {
            text.Append(' ').Append(contender.Name).Append(" |");
        }

        text.AppendLine().Append("|---|");
        text.Insert(text.Length, "---:|", Contenders.Count).AppendLine();
        for (int w = 0; w < Workloads.Count; w++)
        {
            text.Append("| ").Append(Workloads[w].Name).Append(" |");
            for (int c = 0; c < Contenders.Count; c++)
            {
                text.Append(' ').Append(cell(w, c)).Append(" |");
            }

            text.AppendLine();
        }
    }

    private static int IndexOf<T>(IReadOnlyList<T> list, T item, string name)
    {
        for (int i = 0; i < list.Count; i++)
        {
            if (EqualityComparer<T>.Default.Equals(list[i], item))
            {
                return i;
            }
        }

        throw new ArgumentException($"{item} is not part of this report.", name);
    }
}
