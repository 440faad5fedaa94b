using CacheSerializer.LoadTest.Hybrid;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Hybrid;

/// <summary>The hybrid scenario's source of truth: the floor below which a read is stale, by key and by tag.</summary>
public sealed class SourceOfTruthTests
{
    [Fact]
    public void TagOf_RowsFromTaggedFrom_RowLessFirstModTagsOthersNone()
    {
        var truth = new SourceOfTruth(keys: 10, taggedFrom: 4, tags: 3);

        Assert.Equal([-1, -1, -1, -1, 0, 1, 2, 0, 1, 2], Enumerable.Range(0, 10).Select(truth.TagOf));
    }

    [Fact]
    public void UpdateTag_Tag_NextVersionOfEveryRowOfTheTagOnlyNothingSettled()
    {
        var truth = new SourceOfTruth(keys: 10, taggedFrom: 4, tags: 3);
        truth.Update(5);

        IReadOnlyList<(int Key, int Version)> updated = truth.UpdateTag(1);

        Assert.Equal([(5, 2), (8, 1)], updated);
        Assert.Equal([0, 0, 0, 0, 0, 2, 0, 0, 1, 0], Enumerable.Range(0, 10).Select(truth.Version));
        Assert.All(Enumerable.Range(0, 10), k => Assert.Equal(0, truth.Settled(k)));
    }

    [Fact]
    public void TagRemoved_AfterUpdateTag_EachRowOfTheTagSettledAtTheVersionTheUpdateMade()
    {
        var truth = new SourceOfTruth(keys: 10, taggedFrom: 4, tags: 3);
        IReadOnlyList<(int Key, int Version)> first = truth.UpdateTag(0);
        IReadOnlyList<(int Key, int Version)> second = truth.UpdateTag(0);

        truth.TagRemoved(first);

        Assert.Equal([1, 1], new[] { truth.Settled(4), truth.Settled(7) });
        truth.TagRemoved(second);
        Assert.Equal([2, 2], new[] { truth.Settled(4), truth.Settled(7) });
        Assert.Equal([0, 0], new[] { truth.Settled(5), truth.Settled(6) });
    }

    [Fact]
    public void TagRemoved_ARowRemovedByKeyAfterTheTagUpdate_KeepsTheNewerFloor()
    {
        var truth = new SourceOfTruth(keys: 6, taggedFrom: 0, tags: 2);
        IReadOnlyList<(int Key, int Version)> byTag = truth.UpdateTag(0);
        int byKey = truth.Update(2);
        truth.Removed(2, byKey);

        truth.TagRemoved(byTag);

        Assert.Equal((2, 1, 1), (truth.Settled(2), truth.Settled(0), truth.Settled(4)));
    }

    [Fact]
    public void UpdateTag_TagOutOfRange_ArgumentOutOfRangeException()
    {
        var truth = new SourceOfTruth(keys: 6, taggedFrom: 0, tags: 2);

        Assert.Throws<ArgumentOutOfRangeException>(() => truth.UpdateTag(2));
        Assert.Throws<ArgumentOutOfRangeException>(() => new SourceOfTruth(keys: 6).UpdateTag(0));
    }
}
