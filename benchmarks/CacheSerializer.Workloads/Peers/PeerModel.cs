using CacheSerializer.Workloads.Internal;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The equality every peer model has: exact, member for member, by the workload types' own rule.</summary>
/// <typeparam name="TSelf">The peer model type.</typeparam>
/// <remarks>
/// The peer models differ from the workload types only in their attributes, so they state only their members; the load
/// test's check of every value it reads (<see cref="IEquatable{T}.Equals(T)"/>) compares them all (<see cref="PeerEquality"/>),
/// a member added later included. The class has no members to serialize: MessagePack and MemoryPack write a peer as before.
/// </remarks>
public abstract class PeerModel<TSelf> : IEquatable<TSelf>
    where TSelf : PeerModel<TSelf>
{
    /// <summary>A sealed class's equality, found once rather than looked up at every comparison.</summary>
    private static readonly PeerEquality? SealedEquality = typeof(TSelf).IsSealed ? PeerEquality.For(typeof(TSelf)) : null;

    /// <inheritdoc/>
    public bool Equals(TSelf? other) =>
        other is not null && other.GetType() == GetType() && (SealedEquality ?? PeerEquality.For(GetType())).Equal(this, other);

    /// <inheritdoc/>
    public sealed override bool Equals(object? obj) => Equals(obj as TSelf);

    /// <inheritdoc/>
    public sealed override int GetHashCode() => (SealedEquality ?? PeerEquality.For(GetType())).Hash(this);
}
