using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>
/// The base of the folders workload's nodes as MessagePack and MemoryPack users write it (<see cref="Models.NodeBase"/>'s
/// peer model): each library's own union attribute names the two subtypes, as <c>[ProtoInclude]</c> does for protobuf-net.
/// </summary>
[Union(0, typeof(FolderNodePeer))]
[Union(1, typeof(DocumentNodePeer))]
[MemoryPackable]
[MemoryPackUnion(0, typeof(FolderNodePeer))]
[MemoryPackUnion(1, typeof(DocumentNodePeer))]
public abstract partial class NodeBasePeer : PeerModel<NodeBasePeer>
{
    /// <summary>Gets or sets the id.</summary>
    [Key(0)]
    public Guid Id { get; set; }

    /// <summary>Gets or sets the display name.</summary>
    [Key(1)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets when the node was created (UTC).</summary>
    [Key(2)]
    public DateTime Created { get; set; }

    /// <summary>Gets or sets the labels; <see langword="null"/> when never labelled, empty when all were removed.</summary>
    [Key(3)]
    public List<string>? Labels { get; set; }

    /// <summary>Gets or sets the description, often absent.</summary>
    [Key(4)]
    public string? Description { get; set; }
}
