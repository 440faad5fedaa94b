using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One (user id, right) pair as MessagePack and MemoryPack users write it (<see cref="Models.Permission"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class PermissionPeer : PeerModel<PermissionPeer>
{
    /// <summary>Gets or sets the user the right is granted to.</summary>
    [Key(0)]
    public int UserId { get; set; }

    /// <summary>Gets or sets the right.</summary>
    [Key(1)]
    public Models.AccessRight Right { get; set; }
}
