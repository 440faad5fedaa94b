using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The records workload as MessagePack and MemoryPack users write it (<see cref="Models.RecordSet"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RecordSetPeer : PeerModel<RecordSetPeer>
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
}
