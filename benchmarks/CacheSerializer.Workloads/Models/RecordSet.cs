using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;

namespace CacheSerializer.Workloads.Models;

/// <summary>The "records" workload: a few header ints, then N (id, string) entries.</summary>
/// <remarks>The shape of a C++ comparison of XDR, Boost, Cereal and protobuf.</remarks>
[Serializable]
[DataContract]
public sealed class RecordSet : IEquatable<RecordSet>
{
    /// <summary>Gets or sets the schema version of the set.</summary>
    [DataMember(Order = 1)]
    public int SchemaVersion { get; set; }

    /// <summary>Gets or sets the id of the source that produced the set.</summary>
    [DataMember(Order = 2)]
    public int SourceId { get; set; }

    /// <summary>Gets or sets the sequence number of the set.</summary>
    [DataMember(Order = 3)]
    public int Sequence { get; set; }

    /// <summary>Gets or sets the entries.</summary>
    [DataMember(Order = 4)]
    public List<Record> Records { get; set; } = [];

    /// <inheritdoc/>
    public bool Equals(RecordSet? other) =>
        other is not null && SchemaVersion == other.SchemaVersion && SourceId == other.SourceId &&
        Sequence == other.Sequence && Same.List(Records, other.Records);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as RecordSet);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(SchemaVersion, SourceId, Sequence, Same.ListHash(Records));
}
