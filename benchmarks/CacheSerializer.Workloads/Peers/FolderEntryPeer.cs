using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One folder-tree entry as MessagePack and MemoryPack users write it (<see cref="Models.FolderEntry"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class FolderEntryPeer : PeerModel<FolderEntryPeer>
{
    /// <summary>Gets or sets the id.</summary>
    [Key(0)]
    public Guid Id { get; set; }

    /// <summary>Gets or sets the id of the user who owns the entry.</summary>
    [Key(1)]
    public int OwnerId { get; set; }

    /// <summary>Gets or sets the name.</summary>
    [Key(2)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets the full path.</summary>
    [Key(3)]
    public string Path { get; set; } = "";

    /// <summary>Gets or sets when the entry was created (UTC).</summary>
    [Key(4)]
    public DateTime Created { get; set; }

    /// <summary>Gets or sets when the entry was last modified (UTC).</summary>
    [Key(5)]
    public DateTime Modified { get; set; }

    /// <summary>Gets or sets what the entry is.</summary>
    [Key(6)]
    public Models.EntryKind Kind { get; set; }

    /// <summary>Gets or sets whether the user marked the entry as a favourite.</summary>
    [Key(7)]
    public bool IsFavorite { get; set; }

    /// <summary>Gets or sets the size in bytes (0 for folders).</summary>
    [Key(8)]
    public long Size { get; set; }

    /// <summary>Gets or sets the tags.</summary>
    [Key(9)]
    public List<string> Tags { get; set; } = [];

    /// <summary>Gets or sets who else may use the entry.</summary>
    [Key(10)]
    public List<PermissionPeer> Permissions { get; set; } = [];
}
