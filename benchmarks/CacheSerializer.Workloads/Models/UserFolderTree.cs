using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;

namespace CacheSerializer.Workloads.Models;

/// <summary>The "large object" workload: a user's folder tree of 2,000 entries, flattened with a path on each.</summary>
[Serializable]
[DataContract]
public sealed class UserFolderTree : IEquatable<UserFolderTree>
{
    /// <summary>Gets or sets the user whose tree this is.</summary>
    [DataMember(Order = 1)]
    public int UserId { get; set; }

    /// <summary>Gets or sets the user's display name.</summary>
    [DataMember(Order = 2)]
    public string UserName { get; set; } = "";

    /// <summary>Gets or sets when the tree was read (UTC).</summary>
    [DataMember(Order = 3)]
    public DateTime Loaded { get; set; }

    /// <summary>Gets or sets the entries, parents before children.</summary>
    [DataMember(Order = 4)]
    public List<FolderEntry> Entries { get; set; } = [];

    /// <inheritdoc/>
    public bool Equals(UserFolderTree? other) =>
        other is not null && UserId == other.UserId && UserName == other.UserName &&
        Same.Time(Loaded, other.Loaded) && Same.List(Entries, other.Entries);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as UserFolderTree);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(UserId, UserName, Same.ListHash(Entries));
}
