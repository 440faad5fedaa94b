using System.Xml.Linq;
using CacheSerializer.Workloads.Charts;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Charts;

public class SvgBarChartTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    [Fact]
    public void ToSvg_GroupedValues_IsWellFormedWithOneBarPerValueAndEveryLabel()
    {
        var chart = new SvgBarChart("Stored bytes", "B");
        chart.Add("rpc message", "BSON", 154);
        chart.Add("rpc message", "Google.Protobuf", 99);
        chart.Add("records", "BSON", 45_883);
        chart.Add("records", "Google.Protobuf", 25_215);
        chart.Add("records", "Plain copy", 0);

        var svg = XDocument.Parse(chart.ToSvg());

        Assert.Equal(Svg + "svg", svg.Root!.Name);
        Assert.Equal(5, Bars(svg).Count);
        Assert.Equal("Stored bytes", svg.Root.Element(Svg + "title")!.Value);
        Assert.Equal(["rpc message", "records"], Texts(svg, "group"));
        Assert.Equal(["BSON", "Google.Protobuf", "BSON", "Google.Protobuf", "Plain copy"], Texts(svg, "label"));
        Assert.Equal(["154 B", "99 B", "45,883 B", "25,215 B", "0 B"], Texts(svg, "value"));
    }

    [Fact]
    public void ToSvg_Values_DrawBarsProportionalToTheLargest()
    {
        var chart = new SvgBarChart("t", "");
        chart.Add("g", "a", 50);
        chart.Add("g", "b", 100);
        chart.Add("g", "c", 0);

        double[] widths = Bars(XDocument.Parse(chart.ToSvg())).Select(b => (double)b.Attribute("width")!).ToArray();

        Assert.Equal(widths[1] / 2, widths[0], 2);
        Assert.Equal(0, widths[2]);
    }

    [Fact]
    public void ToSvg_ValueBeyondTheAxisMaximum_IsCutAtTheEndAndKeepsItsValue()
    {
        var chart = new SvgBarChart("t", "x") { AxisMaximum = 2, NumberFormat = "0.00" };
        chart.Add("g", "a", 1);
        chart.Add("g", "b", 15.75);

        var svg = XDocument.Parse(chart.ToSvg());
        List<XElement> bars = Bars(svg);

        Assert.Equal("bar clipped", (string)bars[1].Attribute("class")!);
        Assert.Equal((double)bars[0].Attribute("width")! * 2, (double)bars[1].Attribute("width")!, 2);
        Assert.Single(svg.Descendants(Svg + "rect"), r => (string?)r.Attribute("class") == "cut");
        Assert.Equal(["1.00 x", "15.75 x"], Texts(svg, "value"));
    }

    [Fact]
    public void ToSvg_SameSeriesInTwoGroups_KeepsOneColour()
    {
        var chart = new SvgBarChart("t", "us");
        chart.Add("g1", "a", 1);
        chart.Add("g1", "b", 2);
        chart.Add("g2", "a", 3);

        string[] fills = Bars(XDocument.Parse(chart.ToSvg())).Select(b => (string)b.Attribute("fill")!).ToArray();

        Assert.Equal(fills[0], fills[2]);
        Assert.NotEqual(fills[0], fills[1]);
    }

    [Fact]
    public void ToSvg_LabelsWithMarkup_AreEscaped()
    {
        var chart = new SvgBarChart("a < b & \"c\"", "x");
        chart.Add("<g>", "s & t", 1);

        var svg = XDocument.Parse(chart.ToSvg());

        Assert.Equal(["a < b & \"c\""], Texts(svg, "title"));
        Assert.Equal(["<g>"], Texts(svg, "group"));
        Assert.Equal(["s & t"], Texts(svg, "label"));
    }

    [Fact]
    public void ToSvg_NoValues_IsAWellFormedEmptyChart()
    {
        var svg = XDocument.Parse(new SvgBarChart("empty", "B").ToSvg());

        Assert.Empty(Bars(svg));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    public void Add_NegativeOrNonFiniteValue_ThrowsArgumentOutOfRange(double value)
    {
        var chart = new SvgBarChart("t", "B");

        Assert.Throws<ArgumentOutOfRangeException>(() => chart.Add("g", "s", value));
    }

    [Fact]
    public void Save_Chart_WritesTheSameDocumentAsUtf8WithoutBom()
    {
        var chart = new SvgBarChart("héllo", "B");
        chart.Add("g", "s", 1);
        string path = Path.Combine(Path.GetTempPath(), $"svgbarchart-{Guid.NewGuid():N}.svg");
        try
        {
            chart.Save(path);

            byte[] bytes = File.ReadAllBytes(path);
            Assert.Equal((byte)'<', bytes[0]);
            Assert.Equal(chart.ToSvg(), System.Text.Encoding.UTF8.GetString(bytes));
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static List<XElement> Bars(XDocument svg) =>
        svg.Descendants(Svg + "rect").Where(r => ((string?)r.Attribute("class"))?.Split(' ').Contains("bar") == true).ToList();

    private static string[] Texts(XDocument svg, string cssClass) =>
        svg.Descendants(Svg + "text").Where(t => (string?)t.Attribute("class") == cssClass).Select(t => t.Value).ToArray();
}
