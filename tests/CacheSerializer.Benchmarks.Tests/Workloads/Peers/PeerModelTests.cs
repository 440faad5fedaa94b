using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;
using CacheSerializer.Workloads.Peers;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Peers;

public class PeerModelTests
{
    [Fact]
    public void Equals_TwoMappingsOfOneValue_IsTrueWithEqualHashes()
    {
        UserFolderTreePeer a = PeerConvert.ToPeer(WorkloadFactory.LargeObject());
        UserFolderTreePeer b = PeerConvert.ToPeer(WorkloadFactory.LargeObject());

        Assert.NotSame(a, b);
        Assert.True(a.Equals(b));
        Assert.True(a.Equals((object)b));
        Assert.Equal(a.GetHashCode(), b.GetHashCode());
    }

    [Fact]
    public void Equals_OneNestedEntryDiffersInOneMember_IsFalse()
    {
        UserFolderTreePeer a = PeerConvert.ToPeer(WorkloadFactory.LargeObject());
        UserFolderTreePeer b = PeerConvert.ToPeer(WorkloadFactory.LargeObject());

        b.Entries[^1].Size++;

        Assert.False(a.Equals(b));
    }

    [Fact]
    public void Equals_SameInstantOfAnotherKind_IsFalse()
    {
        var a = new RevisionPeer { Number = 1, Saved = new DateTime(2024, 5, 1, 0, 0, 0, DateTimeKind.Utc), Author = "x" };
        var b = new RevisionPeer { Number = 1, Saved = DateTime.SpecifyKind(a.Saved, DateTimeKind.Unspecified), Author = "x" };

        Assert.False(a.Equals(b));
    }

    [Fact]
    public void Equals_NullListAgainstEmptyList_IsFalse()
    {
        var a = new FolderNodePeer { Name = "n", Children = null };
        var b = new FolderNodePeer { Name = "n", Children = [] };

        Assert.False(a.Equals(b));
        Assert.True(a.Equals(new FolderNodePeer { Name = "n", Children = null }));
    }

    [Fact]
    public void Equals_NodesOfTwoSubclassesWithEqualBaseMembers_IsFalse()
    {
        NodeBasePeer folder = new FolderNodePeer { Name = "n" };
        NodeBasePeer document = new DocumentNodePeer { Name = "n" };

        Assert.False(folder.Equals(document));
        Assert.False(document.Equals(folder));
    }

    [Fact]
    public void Equals_CatalogsWhoseDeepNodesDiffer_IsFalse()
    {
        FolderCatalogPeer a = PeerConvert.ToPeer(WorkloadFactory.Folders());
        FolderCatalog changed = WorkloadFactory.Folders();
        DocumentNode document = Documents(changed.Roots).First(d => d.Revisions is { Count: > 0 });
        document.Revisions![0].Author += "!";

        Assert.True(a.Equals(PeerConvert.ToPeer(WorkloadFactory.Folders())));
        Assert.False(a.Equals(PeerConvert.ToPeer(changed)));
    }

    private static IEnumerable<DocumentNode> Documents(IEnumerable<NodeBase> nodes) =>
        nodes.SelectMany(n => n switch
        {
            DocumentNode d => [d],
            FolderNode { Children: { } children } => Documents(children),
            _ => [],
        });
}
