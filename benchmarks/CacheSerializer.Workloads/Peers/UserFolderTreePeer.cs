using CacheSerializer.Workloads.Models.Internal;
using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The large object as MessagePack and MemoryPack users write it (<see cref="Models.UserFolderTree"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class UserFolderTreePeer : IEquatable<UserFolderTreePeer>
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

    /// <inheritdoc/>
    public bool Equals(UserFolderTreePeer? other) =>
        other is not null && UserId == other.UserId && UserName == other.UserName && Same.Time(Loaded, other.Loaded) && Same.List(Entries, other.Entries);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as UserFolderTreePeer);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(UserId, UserName, Same.ListHash(Entries));
}
