using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The large object as MessagePack and MemoryPack users write it (<see cref="Models.UserFolderTree"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class UserFolderTreePeer : PeerModel<UserFolderTreePeer>
{
    /// <summary>Gets or sets the user whose tree this is.</summary>
    [Key(0)]
    public int UserId { get; set; }

    /// <summary>Gets or sets the user's display name.</summary>
    [Key(1)]
    public string UserName { get; set; } = "";

    /// <summary>Gets or sets when the tree was read (UTC).</summary>
    [Key(2)]
    public DateTime Loaded { get; set; }

    /// <summary>Gets or sets the entries, parents before children.</summary>
    [Key(3)]
    public List<FolderEntryPeer> Entries { get; set; } = [];
}
