using CacheSerializer.Workloads.Models.Internal;
using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The records workload as MessagePack and MemoryPack users write it (<see cref="Models.RecordSet"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RecordSetPeer : IEquatable<RecordSetPeer>
{
    /// <summary>Gets or sets the schema version of the set.</summary>
    [Key(0)]
    public int SchemaVersion { get; set; }

    /// <summary>Gets or sets the id of the source that produced the set.</summary>
    [Key(1)]
    public int SourceId { get; set; }

    /// <summary>Gets or sets the sequence number of the set.</summary>
    [Key(2)]
    public int Sequence { get; set; }

    /// <summary>Gets or sets the entries.</summary>
    [Key(3)]
    public List<RecordPeer> Records { get; set; } = [];

    /// <inheritdoc/>
    public bool Equals(RecordSetPeer? other) =>
        other is not null && SchemaVersion == other.SchemaVersion && SourceId == other.SourceId && Sequence == other.Sequence && Same.List(Records, other.Records);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as RecordSetPeer);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(SchemaVersion, SourceId, Sequence, Same.ListHash(Records));
}
