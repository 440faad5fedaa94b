using CacheSerializer.Workloads.Models;
using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One (user id, right) pair as MessagePack and MemoryPack users write it (<see cref="Models.Permission"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class PermissionPeer : IEquatable<PermissionPeer>
{
    /// <summary>Gets or sets the user the right is granted to.</summary>
    [Key(0)]
    public int UserId { get; set; }

    /// <summary>Gets or sets the right.</summary>
    [Key(1)]
    public AccessRight Right { get; set; }

    /// <inheritdoc/>
    public bool Equals(PermissionPeer? other) =>
        other is not null && UserId == other.UserId && Right == other.Right;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as PermissionPeer);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(UserId, Right);
}
