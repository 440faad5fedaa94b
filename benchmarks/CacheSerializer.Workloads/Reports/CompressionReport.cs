using System.Globalization;
using System.Text;

namespace CacheSerializer.Workloads.Reports;

/// <summary>
/// The stored bytes of every object workload through this transcoder under every <see cref="CompressionSetting"/>: the
/// bytes half of the compression comparison (deterministic, so measured without timing; the CPU half is a benchmark).
/// </summary>
public sealed class CompressionReport
{
    private readonly int[,] _bytes;

    /// <summary>Measures every pair by serializing once, compression tried on every payload (threshold 0, kept when smaller).</summary>
    /// <param name="workloads">The rows.</param>
    /// <param name="settings">The columns.</param>
    public CompressionReport(IReadOnlyList<Workload> workloads, IReadOnlyList<CompressionSetting> settings)
    {
        Workloads = workloads ?? throw new ArgumentNullException(nameof(workloads));
        Settings = settings ?? throw new ArgumentNullException(nameof(settings));
        _bytes = new int[workloads.Count, settings.Count];
        Uncompressed = [.. workloads.Select(w => new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None }).Serialize(w.Value).Data.Count)];
        for (int s = 0; s < settings.Count; s++)
        {
            ProtobufTranscoder transcoder = settings[s].CreateTranscoder();
            for (int w = 0; w < workloads.Count; w++)
            {
                _bytes[w, s] = transcoder.Serialize(workloads[w].Value).Data.Count;
            }
        }
    }

    /// <summary>Gets the workloads (rows).</summary>
    public IReadOnlyList<Workload> Workloads { get; }

    /// <summary>Gets the settings (columns).</summary>
    public IReadOnlyList<CompressionSetting> Settings { get; }

    /// <summary>Gets each workload's uncompressed payload bytes, in <see cref="Workloads"/> order.</summary>
    public IReadOnlyList<int> Uncompressed { get; }

    /// <summary>Measures the object workloads under every setting.</summary>
    /// <returns>The report.</returns>
    public static CompressionReport ForCatalogs() => new(WorkloadCatalog.Objects, CompressionSetting.All);

    /// <summary>Returns the stored bytes of one pair (the uncompressed payload when compressing did not make it smaller).</summary>
    /// <param name="workload">A workload's name.</param>
    /// <param name="setting">A setting's name.</param>
    /// <returns>The bytes.</returns>
    public int BytesOf(string workload, string setting) =>
        _bytes[IndexOf(Workloads.Select(w => w.Name), workload), IndexOf(Settings.Select(s => s.Name), setting)];

    /// <summary>Writes the bytes table, then the same relative to the first setting, in Markdown.</summary>
    /// <returns>The Markdown text.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("Stored payload bytes, compression tried on every payload (kept only when smaller):").AppendLine();
        AppendTable(text, "uncompressed", w => Uncompressed[w].ToString("#,0", CultureInfo.InvariantCulture), (w, s) => _bytes[w, s].ToString("#,0", CultureInfo.InvariantCulture));
        text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"Bytes relative to {Settings[0].Name}:").AppendLine();
        AppendTable(text, "uncompressed", w => Ratio(Uncompressed[w], _bytes[w, 0]), (w, s) => Ratio(_bytes[w, s], _bytes[w, 0]));
        return text.ToString();
    }

    private static string Ratio(int bytes, int baseline) => ((double)bytes / baseline).ToString("0.000", CultureInfo.InvariantCulture);

    private static int IndexOf(IEnumerable<string> names, string name)
    {
        int index = names.ToList().IndexOf(name);
        return index >= 0 ? index : throw new ArgumentException($"'{name}' is not part of this report.", nameof(name));
    }

    private void AppendTable(StringBuilder text, string first, Func<int, string> firstCell, Func<int, int, string> cell)
    {
        text.Append("| Workload | ").Append(first).Append(" |");
        foreach (CompressionSetting setting in Settings)
        {
            text.Append(' ').Append(setting.Name).Append(" |");
        }

        text.AppendLine().Append("|---|---:|");
        text.Insert(text.Length, "---:|", Settings.Count).AppendLine();
        for (int w = 0; w < Workloads.Count; w++)
        {
            text.Append("| ").Append(Workloads[w].Name).Append(" | ").Append(firstCell(w)).Append(" |");
            for (int s = 0; s < Settings.Count; s++)
            {
                text.Append(' ').Append(cell(w, s)).Append(" |");
            }

            text.AppendLine();
        }
    }
}
