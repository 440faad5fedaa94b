using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>A folder as MessagePack and MemoryPack users write it (<see cref="Models.FolderNode"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class FolderNodePeer : NodeBasePeer
{
    /// <summary>Gets or sets the children; <see langword="null"/> when never listed, empty when the folder is empty.</summary>
    [Key(5)]
    public List<NodeBasePeer>? Children { get; set; }

    /// <summary>Gets or sets whether the folder is shared with other users.</summary>
    [Key(6)]
    public bool IsShared { get; set; }
}
