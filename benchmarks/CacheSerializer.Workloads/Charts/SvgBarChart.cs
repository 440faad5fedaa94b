using System.Globalization;
using System.Text;
using System.Xml;

namespace CacheSerializer.Workloads.Charts;

/// <summary>Writes a horizontal bar chart as a standalone SVG document, with no dependency beyond the BCL.</summary>
/// <remarks>
/// ScottPlot and OxyPlot do not restore here and BenchmarkDotNet's RPlotExporter needs R, so the benchmarks and the load
/// test draw their charts with this. Bars are grouped (e.g. by workload), one per series (e.g. contender); each bar is
/// labelled with its series and its value, so the chart reads without a legend, and series keep one colour throughout.
/// The document is written with <see cref="XmlWriter"/>, so any label text is escaped.
/// </remarks>
public sealed class SvgBarChart
{
    private const int Width = 900;
    private const int LabelWidth = 210;
    private const int ValueWidth = 110;
    private const int BarHeight = 16;
    private const int BarGap = 4;
    private const int GroupHeaderHeight = 22;
    private const int TitleHeight = 40;
    private const int Margin = 10;

    // Colour-blind-safe (Okabe-Ito), cycled when there are more series.
    private static readonly string[] Palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"];

    private readonly List<(string Group, string Series, double Value)> _bars = [];

    /// <summary>Creates an empty chart.</summary>
    /// <param name="title">The title written above the bars.</param>
    /// <param name="unit">The unit written after each value (e.g. "B", "us", "x BSON"); may be empty.</param>
    public SvgBarChart(string title, string unit)
    {
        Title = title ?? throw new ArgumentNullException(nameof(title));
        Unit = unit ?? throw new ArgumentNullException(nameof(unit));
    }

    /// <summary>Gets the title.</summary>
    public string Title { get; }

    /// <summary>Gets the unit written after each value.</summary>
    public string Unit { get; }

    /// <summary>Gets or sets the value at the right end of the axis; longer bars are cut there and marked, their label keeps the value.</summary>
    /// <value>The largest value added, when <see langword="null"/> (the default).</value>
    /// <remarks>Set it when a few outliers would squash every other bar (e.g. 15x next to 0.5x).</remarks>
    public double? AxisMaximum { get; init; }

    /// <summary>Gets or sets the .NET numeric format of the values written next to the bars.</summary>
    /// <value>"#,0" for values of 100 and more and "0.##" below, when <see langword="null"/> (the default).</value>
    public string? NumberFormat { get; init; }

    /// <summary>Gets the number of bars added.</summary>
    public int Count => _bars.Count;

    /// <summary>Adds one bar.</summary>
    /// <param name="group">The group it is drawn under; groups appear in the order first added.</param>
    /// <param name="series">The series it belongs to, written next to the bar and setting its colour.</param>
    /// <param name="value">The value, finite and not negative; bar lengths are proportional to it.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative, infinite or NaN.</exception>
    public void Add(string group, string series, double value)
    {
        ArgumentNullException.ThrowIfNull(group);
        ArgumentNullException.ThrowIfNull(series);
        if (!double.IsFinite(value) || value < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(value), value, "A bar's value must be finite and not negative.");
        }

        _bars.Add((group, series, value));
    }

    /// <summary>Writes the chart as an SVG document.</summary>
    /// <returns>The document text.</returns>
    public string ToSvg()
    {
        var groups = _bars.Select(b => b.Group).Distinct().ToList();
        var series = _bars.Select(b => b.Series).Distinct().ToList();
        double max = AxisMaximum ?? (_bars.Count == 0 ? 0 : _bars.Max(b => b.Value));
        int plotWidth = Width - LabelWidth - ValueWidth - (2 * Margin);
        int height = TitleHeight + (groups.Count * GroupHeaderHeight) + (_bars.Count * (BarHeight + BarGap)) + Margin;

        var text = new StringBuilder();
        var settings = new XmlWriterSettings { Indent = true, OmitXmlDeclaration = true };
        using (var xml = XmlWriter.Create(text, settings))
        {
            xml.WriteStartElement("svg", "http://www.w3.org/2000/svg");
            Attribute(xml, "width", Width);
            Attribute(xml, "height", height);
            xml.WriteAttributeString("viewBox", Invariant($"0 0 {Width} {height}"));
            xml.WriteAttributeString("font-family", "sans-serif");
            xml.WriteAttributeString("font-size", "12");
            xml.WriteElementString("title", Title);
            xml.WriteStartElement("rect");
            xml.WriteAttributeString("width", "100%");
            xml.WriteAttributeString("height", "100%");
            xml.WriteAttributeString("fill", "white");
            xml.WriteEndElement();
            Text(xml, "title", Margin, 26, Title, "font-size", "16", "font-weight", "bold");

            int y = TitleHeight;
            foreach (string group in groups)
            {
                Text(xml, "group", Margin, y + 15, group, "font-weight", "bold");
                y += GroupHeaderHeight;
                foreach ((_, string name, double value) in _bars.Where(b => b.Group == group))
                {
                    bool clipped = value > max;
                    double length = clipped ? plotWidth : max > 0 ? value / max * plotWidth : 0;
                    int x = Margin + LabelWidth;
                    Text(xml, "label", x - 6, y + BarHeight - 4, name, "text-anchor", "end");
                    xml.WriteStartElement("rect");
                    xml.WriteAttributeString("class", clipped ? "bar clipped" : "bar");
                    Attribute(xml, "x", x);
                    Attribute(xml, "y", y);
                    xml.WriteAttributeString("width", length.ToString("0.##", CultureInfo.InvariantCulture));
                    Attribute(xml, "height", BarHeight);
                    xml.WriteAttributeString("fill", Palette[series.IndexOf(name) % Palette.Length]);
                    xml.WriteElementString("title", $"{group} / {name}: {Format(value)}");
                    xml.WriteEndElement();
                    if (clipped)
                    {
                        // A white gap near the end says "longer than drawn", as a broken axis does.
                        xml.WriteStartElement("rect");
                        xml.WriteAttributeString("class", "cut");
                        Attribute(xml, "x", x + plotWidth - 14);
                        Attribute(xml, "y", y);
                        Attribute(xml, "width", 4);
                        Attribute(xml, "height", BarHeight);
                        xml.WriteAttributeString("fill", "white");
                        xml.WriteEndElement();
                    }

                    Text(xml, "value", x + (int)Math.Ceiling(length) + 4, y + BarHeight - 4, Format(value));
                    y += BarHeight + BarGap;
                }
            }

            xml.WriteEndElement();
        }

        return text.ToString();
    }

    /// <summary>Writes the chart to a file as UTF-8.</summary>
    /// <param name="path">The file to create or replace.</param>
    public void Save(string path) => File.WriteAllText(path, ToSvg(), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));

    private string Format(double value)
    {
        string number = value.ToString(NumberFormat ?? (value >= 100 ? "#,0" : "0.##"), CultureInfo.InvariantCulture);
        return Unit.Length == 0 ? number : $"{number} {Unit}";
    }

    private static void Text(XmlWriter xml, string cssClass, int x, int y, string content, params string[] attributes)
    {
        xml.WriteStartElement("text");
        xml.WriteAttributeString("class", cssClass);
        Attribute(xml, "x", x);
        Attribute(xml, "y", y);
        for (int i = 0; i < attributes.Length; i += 2)
        {
            xml.WriteAttributeString(attributes[i], attributes[i + 1]);
        }

        xml.WriteString(content);
        xml.WriteEndElement();
    }

    private static void Attribute(XmlWriter xml, string name, int value) => xml.WriteAttributeString(name, value.ToString(CultureInfo.InvariantCulture));

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
