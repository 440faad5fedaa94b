using System.Runtime.Serialization;

namespace CacheSerializer.Workloads.Models;

/// <summary>One (user id, right) pair on a <see cref="FolderEntry"/>.</summary>
[Serializable]
[DataContract]
public sealed class Permission : IEquatable<Permission>
{
    /// <summary>Gets or sets the user the right is granted to.</summary>
    [DataMember(Order = 1)]
    public int UserId { get; set; }

    /// <summary>Gets or sets the right.</summary>
    [DataMember(Order = 2)]
    public AccessRight Right { get; set; }

    /// <inheritdoc/>
    public bool Equals(Permission? other) => other is not null && UserId == other.UserId && Right == other.Right;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as Permission);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(UserId, Right);
}
