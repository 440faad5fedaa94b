using System.Security.Cryptography;
using System.Text;
using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Generation;

public class WorkloadFactoryTests
{
    [Fact]
    public void EveryWorkload_GeneratedTwice_IsEqual()
    {
        Assert.Equal(WorkloadFactory.RpcMessage(), WorkloadFactory.RpcMessage());
        Assert.Equal(WorkloadFactory.EightUInt64s(), WorkloadFactory.EightUInt64s());
        Assert.Equal(WorkloadFactory.Records(1024), WorkloadFactory.Records(1024));
        Assert.Equal(WorkloadFactory.Folders(), WorkloadFactory.Folders());
        Assert.Equal(WorkloadFactory.LargeObject(), WorkloadFactory.LargeObject());
    }

    [Fact]
    public void EveryWorkload_AnotherSeed_IsAnotherValueOfTheSameShape()
    {
        Assert.NotEqual(WorkloadFactory.RpcMessage(), WorkloadFactory.RpcMessage(seed: 1));
        Assert.NotEqual(WorkloadFactory.EightUInt64s(), WorkloadFactory.EightUInt64s(seed: 1));
        Assert.NotEqual(WorkloadFactory.Records(32), WorkloadFactory.Records(32, seed: 1));
        Assert.NotEqual(WorkloadFactory.Folders(), WorkloadFactory.Folders(seed: 1));
        Assert.Equal(40, WorkloadFactory.RpcMessage(seed: 1).Body.Length);
        Assert.Equal(10, WorkloadFactory.LargeObject(10, seed: 1).Entries.Count);
        Assert.NotEqual(WorkloadFactory.LargeObject(10), WorkloadFactory.LargeObject(10, seed: 1));
    }

    [Fact]
    public void Equals_FoldersThatDifferOnlyByNullVersusEmptyDeepInside_IsFalse()
    {
        FolderCatalog a = WorkloadFactory.Folders();
        FolderCatalog b = WorkloadFactory.Folders();
        NodeBase deep = Descendants(b).First(n => n.Labels is null);

        deep.Labels = [];

        Assert.NotEqual(a, b);
    }

    [Fact]
    public void Equals_SameInstantOfAnotherKind_IsFalse()
    {
        UserFolderTree a = WorkloadFactory.LargeObject(3);
        UserFolderTree b = WorkloadFactory.LargeObject(3);

        b.Entries[2].Modified = DateTime.SpecifyKind(b.Entries[2].Modified, DateTimeKind.Local);

        Assert.NotEqual(a, b);
    }

    // The fingerprints below were measured from the generator when it was written (2026-11-22). They pin the graphs, so
    // sizes stay comparable between runs: a change to the generator must change them on purpose, and the size figures too.
    [Fact]
    public void RpcMessage_Fingerprint_IsFixed()
    {
        RpcMessage message = WorkloadFactory.RpcMessage();

        Assert.Equal((20, 24, 40), (message.Service.Length, message.Method.Length, message.Body.Length));
        Assert.Equal("B569071D9DFF6E12", Fingerprint(message.Service, message.Method, message.Body));
    }

    [Fact]
    public void Records_Fingerprint_IsFixedAndPrefixesAgree()
    {
        RecordSet records = WorkloadFactory.Records(1024);

        Assert.Equal(1024, records.Records.Count);
        Assert.All(records.Records, r => Assert.InRange(r.Text.Length, 8, 24));
        Assert.Equal(WorkloadFactory.Records(32).Records, records.Records.Take(32));
        Assert.Equal("A7A1B12DC7975D18", Fingerprint(records.Records.Select(r => $"{r.Id}:{r.Text}")));
    }

    [Fact]
    public void Folders_Shape_HasBothSubtypesNullAndEmptyCollectionsAndVersions()
    {
        FolderCatalog catalog = WorkloadFactory.Folders();
        var nodes = Descendants(catalog).ToList();
        var folders = nodes.OfType<FolderNode>().ToList();
        var documents = nodes.OfType<DocumentNode>().ToList();

        // Fixed by the seed; each count is above zero, which is the shape the production team's type had.
        Assert.Equal(
            "folders=17 documents=27 nullLabels=16 emptyLabels=8 nullChildren=3 emptyChildren=3 nullRevisions=6 emptyRevisions=11 noVersion=10",
            $"folders={folders.Count} documents={documents.Count} nullLabels={nodes.Count(n => n.Labels is null)} " +
            $"emptyLabels={nodes.Count(n => n.Labels is { Count: 0 })} nullChildren={folders.Count(f => f.Children is null)} " +
            $"emptyChildren={folders.Count(f => f.Children is { Count: 0 })} nullRevisions={documents.Count(d => d.Revisions is null)} " +
            $"emptyRevisions={documents.Count(d => d.Revisions is { Count: 0 })} noVersion={documents.Count(d => d.FormatVersion is null)}");
        Assert.Equal(new Version(3, 2, 1), catalog.SchemaVersion);
    }

    [Fact]
    public void LargeObject_Fingerprint_IsFixed()
    {
        UserFolderTree tree = WorkloadFactory.LargeObject();

        Assert.Equal(2000, tree.Entries.Count);
        Assert.All(tree.Entries, e => Assert.InRange(e.Name.Length, 5, 40));
        Assert.All(tree.Entries, e => Assert.InRange(e.Tags.Count, 0, 5));
        Assert.All(tree.Entries, e => Assert.True(e.Modified >= e.Created));
        Assert.Equal(
            "distinctNames=1998 folders=403 pathChars=273349 maxDepth=9 tags=5144 permissions=3008",
            $"distinctNames={tree.Entries.Select(e => e.Name).Distinct().Count()} folders={tree.Entries.Count(e => e.Kind == EntryKind.Folder)} " +
            $"pathChars={tree.Entries.Sum(e => e.Path.Length)} maxDepth={tree.Entries.Max(e => e.Path.Count(c => c == '/'))} " +
            $"tags={tree.Entries.Sum(e => e.Tags.Count)} permissions={tree.Entries.Sum(e => e.Permissions.Count)}");
        Assert.Equal("788C83A6B3EDB2B0", Fingerprint(tree.Entries.Select(e => e.Name)));
    }

    [Fact]
    public void LargeObject_Paths_AreTheParentPathPlusTheName()
    {
        UserFolderTree tree = WorkloadFactory.LargeObject();
        var folderPaths = new HashSet<string>(StringComparer.Ordinal) { "" };

        foreach (FolderEntry entry in tree.Entries)
        {
            Assert.EndsWith("/" + entry.Name, entry.Path, StringComparison.Ordinal);
            Assert.Contains(entry.Path[..^(entry.Name.Length + 1)], folderPaths);
            if (entry.Kind == EntryKind.Folder)
            {
                folderPaths.Add(entry.Path);
            }
        }
    }

    private static IEnumerable<NodeBase> Descendants(FolderCatalog catalog)
    {
        var pending = new Stack<NodeBase>(catalog.Roots);
        while (pending.Count > 0)
        {
            NodeBase node = pending.Pop();
            yield return node;
            if (node is FolderNode { Children: { } children })
            {
                children.ForEach(pending.Push);
            }
        }
    }

    // The first 16 hex digits of SHA-256 over the strings joined by '\n'.
    private static string Fingerprint(params IEnumerable<string> parts) =>
        Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join('\n', parts))))[..16];
}
