using CacheSerializer.LoadTest.Mix;

namespace CacheSerializer.Samples.Tests.LoadTest.Mix;

public sealed class ValueMixTests
{
    private static readonly ValueMix Mix = ValueMix.CreateDefault(keys: 10_000, seed: 20261122);

    [Fact]
    public void CreateDefault_SameSeed_SameShapeAndVariantPerKey()
    {
        var again = ValueMix.CreateDefault(keys: 10_000, seed: 20261122);

        Assert.All(Enumerable.Range(0, 10_000), k => Assert.Equal((Mix.ShapeOf(k).Name, Mix.VariantOf(k)), (again.ShapeOf(k).Name, again.VariantOf(k))));
        Assert.Equal(ValueMix.VariantsPerShape, Enumerable.Range(0, 10_000).Select(Mix.VariantOf).Distinct().Count());
    }

    [Fact]
    public void KeysPerShape_TenThousandKeys_WithinTwoPointsOfEachShare()
    {
        int[] counts = Mix.KeysPerShape();

        Assert.Equal(["rpc message", "records N=32", "folders", "records N=1024", "large folder tree"], Mix.Shapes.Select(s => s.Name));
        Assert.Equal(1.0, Mix.Shapes.Sum(s => s.Share), precision: 10);
        for (int i = 0; i < counts.Length; i++)
        {
            Assert.InRange(counts[i] / 10_000.0, Mix.Shapes[i].Share - 0.02, Mix.Shapes[i].Share + 0.02);
        }
    }

    [Fact]
    public void TreeEntries_Variants_EvenlyFromOneToThreeThousand()
    {
        Assert.Equal(1000, ValueMix.TreeEntries(0));
        Assert.Equal(3000, ValueMix.TreeEntries(ValueMix.VariantsPerShape - 1));
        Assert.All(Enumerable.Range(1, ValueMix.VariantsPerShape - 1), v => Assert.True(ValueMix.TreeEntries(v) > ValueMix.TreeEntries(v - 1)));
    }

    [Fact]
    public void Matches_EveryShape_TrueOnlyForTheSameVariantAndStamp()
    {
        foreach (ValueShape shape in Mix.Shapes)
        {
            object written = shape.Create(3, 41);

            Assert.True(shape.Matches(written, 3, 41), shape.Name);
            Assert.False(shape.Matches(written, 3, 42), shape.Name);
            Assert.False(shape.Matches(written, 4, 41), shape.Name);
            Assert.False(shape.Matches(null, 3, 41), shape.Name);
            Assert.False(shape.Matches("not a model", 3, 41), shape.Name);
        }
    }
}
