using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>The skeleton of every scenario's Markdown (console and file) and JSON: what ran, on what, one table row per
/// part, what each part is; and the figures' formats.</summary>
internal static class ScenarioReportWriter
{
    /// <summary>The JSON of every run's result file.</summary>
    private static readonly JsonSerializerOptions Json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter() },
    };

    /// <summary>Returns a scenario's report as Markdown.</summary>
    /// <param name="report">The report.</param>
    /// <param name="intro">The sentence that says what ran.</param>
    /// <param name="columns">The table's column headers; the first is left-aligned, the others right-aligned (figures).</param>
    /// <param name="rows">One row of cells per part.</param>
    /// <param name="descriptions">One line per part: its name and what it is.</param>
    /// <returns>The Markdown.</returns>
    public static string ToMarkdown(ScenarioReport report, string intro, IReadOnlyList<string> columns, IEnumerable<IReadOnlyList<string>> rows, IEnumerable<string> descriptions)
    {
        ArgumentNullException.ThrowIfNull(report);
        var text = new StringBuilder();
        text.AppendLine(intro);
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"{report.Machine}; load {report.LoadAverage}; memcached {report.Servers}; {report.Started:yyyy-MM-dd HH:mm} UTC.");
        text.AppendLine();
        text.AppendLine($"| {string.Join(" | ", columns)} |");
        text.AppendLine($"|---|{string.Concat(Enumerable.Repeat("---:|", columns.Count - 1))}");
        foreach (IReadOnlyList<string> row in rows)
        {
            text.AppendLine($"| {string.Join(" | ", row)} |");
        }

        text.AppendLine();
        foreach (string description in descriptions)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {description}");
        }

        return text.ToString();
    }

    /// <summary>Writes <c>&lt;name&gt;-&lt;time&gt;.json</c> (the report as it is) and <c>.md</c> into <paramref name="directory"/>.</summary>
    /// <typeparam name="TReport">The scenario's report type (every field of it goes into the JSON).</typeparam>
    /// <param name="name">The scenario's name: farm, deploy, migrate.</param>
    /// <param name="report">The report.</param>
    /// <param name="markdown">The report as Markdown.</param>
    /// <param name="directory">The directory, created if needed.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save<TReport>(string name, TReport report, string markdown, string directory)
        where TReport : ScenarioReport =>
        Save(name, report.Started, report, markdown, directory);

    /// <summary>Writes a run's report (a scenario's, or the main pass's) as <c>&lt;name&gt;-&lt;start time&gt;.json</c> and <c>.md</c> into <paramref name="directory"/> (created if needed).</summary>
    /// <typeparam name="TReport">The report type (every field of it goes into the JSON).</typeparam>
    /// <param name="name">The run's name: loadtest, farm, deploy, migrate.</param>
    /// <param name="started">When the run started, in the file names.</param>
    /// <param name="report">The report.</param>
    /// <param name="markdown">The report as Markdown.</param>
    /// <param name="directory">The directory.</param>
    /// <returns>The paths written: JSON, then Markdown.</returns>
    public static IReadOnlyList<string> Save<TReport>(string name, DateTimeOffset started, TReport report, string markdown, string directory)
    {
        ArgumentNullException.ThrowIfNull(report);
        Directory.CreateDirectory(directory);
        string stem = Path.Combine(directory, name + "-" + started.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        var utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        File.WriteAllText(stem + ".json", JsonSerializer.Serialize(report, Json), utf8);
        File.WriteAllText(stem + ".md", markdown, utf8);
        return [stem + ".json", stem + ".md"];
    }

    /// <summary>A count or rate with thousands separators, no decimals.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The text.</returns>
    public static string N(double value) => value.ToString("#,0", CultureInfo.InvariantCulture);

    /// <summary>A count that may not be known (null: "-").</summary>
    /// <param name="value">The value.</param>
    /// <returns>The text.</returns>
    public static string NumberOrDash(long? value) => value is long known ? N(known) : "-";

    /// <summary>Counts by reason, "n reason, ..." ("0" for none).</summary>
    /// <param name="counts">The counts.</param>
    /// <returns>The text.</returns>
    public static string ByReason(IReadOnlyDictionary<string, long> counts) =>
        counts.Count == 0 ? "0" : string.Join(", ", counts.Select(c => $"{N(c.Value)} {c.Key}"));
}
