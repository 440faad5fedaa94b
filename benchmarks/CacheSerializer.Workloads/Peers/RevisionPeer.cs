using CacheSerializer.Workloads.Models.Internal;
using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One revision of a document as MessagePack and MemoryPack users write it (<see cref="Models.Revision"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RevisionPeer : IEquatable<RevisionPeer>
{
    /// <summary>Gets or sets the revision number.</summary>
    [Key(0)]
    public int Number { get; set; }

    /// <summary>Gets or sets when the revision was saved (UTC).</summary>
    [Key(1)]
    public DateTime Saved { get; set; }

    /// <summary>Gets or sets who saved it.</summary>
    [Key(2)]
    public string Author { get; set; } = "";

    /// <inheritdoc/>
    public bool Equals(RevisionPeer? other) =>
        other is not null && Number == other.Number && Same.Time(Saved, other.Saved) && Author == other.Author;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as RevisionPeer);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Number, Saved, Author);
}
