using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One (id, text) entry as MessagePack and MemoryPack users write it (<see cref="Models.Record"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RecordPeer : PeerModel<RecordPeer>
{
    /// <summary>Gets or sets the id.</summary>
    [Key(0)]
    public int Id { get; set; }

    /// <summary>Gets or sets the text.</summary>
    [Key(1)]
    public string Text { get; set; } = "";
}
