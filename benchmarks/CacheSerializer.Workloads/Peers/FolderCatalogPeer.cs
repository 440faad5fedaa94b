using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The folders workload's root as MessagePack and MemoryPack users write it (<see cref="Models.FolderCatalog"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class FolderCatalogPeer : PeerModel<FolderCatalogPeer>
{
    /// <summary>Gets or sets the version of the schema the catalog was built with.</summary>
    [Key(0)]
    public Version SchemaVersion { get; set; } = new(1, 0);

    /// <summary>Gets or sets the tenant that owns the catalog.</summary>
    [Key(1)]
    public string Tenant { get; set; } = "";

    /// <summary>Gets or sets when the catalog was built (UTC).</summary>
    [Key(2)]
    public DateTime Built { get; set; }

    /// <summary>Gets or sets the top-level nodes.</summary>
    [Key(3)]
    public List<NodeBasePeer> Roots { get; set; } = [];
}
