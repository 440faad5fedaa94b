using CacheSerializer.LoadTest.Mix;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Mix;

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

    [Fact]
    public void For_PeerModel_SameKeysShapesAndVariantsOnThePeerClasses()
    {
        ValueMix peers = Mix.For(CacheSerializer.Workloads.Contenders.ContenderInput.PeerModel);

        Assert.Same(peers, Mix.For(CacheSerializer.Workloads.Contenders.ContenderInput.PeerModel));
        Assert.Same(Mix, Mix.For(CacheSerializer.Workloads.Contenders.ContenderInput.Value));
        Assert.All(Enumerable.Range(0, 10_000), k => Assert.Equal((Mix.ShapeOf(k).Name, Mix.VariantOf(k)), (peers.ShapeOf(k).Name, peers.VariantOf(k))));
        Assert.Equal(
            ["RpcMessagePeer", "RecordSetPeer", "FolderCatalogPeer", "RecordSetPeer", "UserFolderTreePeer"],
            peers.Shapes.Select(s => s.Create(0, 1).GetType().Name));
    }

    [Fact]
    public void For_PeerModel_EachValueMapsBackToThePlainValueOfTheSameVariantAndStamp()
    {
        ValueMix peers = Mix.For(CacheSerializer.Workloads.Contenders.ContenderInput.PeerModel);

        Assert.Equal(CacheSerializer.Workloads.Peers.PeerConvert.FromPeer((CacheSerializer.Workloads.Peers.RpcMessagePeer)peers.Shapes[0].Create(5, 77)), Mix.Shapes[0].Create(5, 77));
        Assert.Equal(CacheSerializer.Workloads.Peers.PeerConvert.FromPeer((CacheSerializer.Workloads.Peers.FolderCatalogPeer)peers.Shapes[2].Create(5, 77)), Mix.Shapes[2].Create(5, 77));
        Assert.Equal(CacheSerializer.Workloads.Peers.PeerConvert.FromPeer((CacheSerializer.Workloads.Peers.UserFolderTreePeer)peers.Shapes[4].Create(5, 77)), Mix.Shapes[4].Create(5, 77));
        foreach (ValueShape shape in peers.Shapes)
        {
            object written = shape.Create(3, 41);
            Assert.True(shape.Matches(written, 3, 41), shape.Name);
            Assert.False(shape.Matches(written, 3, 42), shape.Name);
            Assert.False(shape.Matches(Mix.Shapes[0].Create(3, 41), 3, 41), shape.Name);
        }
    }

    [Fact]
    public void CreateSeed_HalfUserTreesHalfFolderCatalogs_OfFiveToElevenThousandEntries()
    {
        var seed = ValueMix.Create(LoadProfile.Seed, keys: 1_000, seed: 20261122);
        int[] counts = seed.KeysPerShape();

        Assert.Equal(["user folder tree", "folder catalog"], seed.Shapes.Select(s => s.Name));
        Assert.InRange(counts[0], 450, 550);
        Assert.Equal(1_000, counts.Sum());
        Assert.Equal(5000, ValueMix.SeedTreeSize(0));
        Assert.Equal(11000, ValueMix.SeedTreeSize(ValueMix.VariantsPerShape - 1));
        Assert.Equal(ValueMix.SeedTreeSize(9), ((CacheSerializer.Workloads.Models.UserFolderTree)seed.Shapes[0].Create(9, 1)).Entries.Count);
        Assert.Equal(ValueMix.SeedTreeSize(9), CountNodes(((CacheSerializer.Workloads.Models.FolderCatalog)seed.Shapes[1].Create(9, 1)).Roots));
    }

    private static int CountNodes(List<CacheSerializer.Workloads.Models.NodeBase>? nodes) =>
        nodes?.Sum(n => 1 + (n is CacheSerializer.Workloads.Models.FolderNode folder ? CountNodes(folder.Children) : 0)) ?? 0;
}
