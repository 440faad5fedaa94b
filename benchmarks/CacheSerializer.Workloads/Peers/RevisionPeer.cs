using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>One revision of a document as MessagePack and MemoryPack users write it (<see cref="Models.Revision"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RevisionPeer : PeerModel<RevisionPeer>
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
}
