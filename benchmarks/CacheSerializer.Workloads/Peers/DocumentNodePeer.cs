using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>A document as MessagePack and MemoryPack users write it (<see cref="Models.DocumentNode"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class DocumentNodePeer : NodeBasePeer
{
    /// <summary>Gets or sets the length in bytes.</summary>
    [Key(5)]
    public long Length { get; set; }

    /// <summary>Gets or sets the media type.</summary>
    [Key(6)]
    public string ContentType { get; set; } = "";

    /// <summary>Gets or sets the version of the format the document is written in, when known.</summary>
    [Key(7)]
    public Version? FormatVersion { get; set; }

    /// <summary>Gets or sets the revisions; <see langword="null"/> when not tracked, empty when none yet.</summary>
    [Key(8)]
    public List<RevisionPeer>? Revisions { get; set; }
}
