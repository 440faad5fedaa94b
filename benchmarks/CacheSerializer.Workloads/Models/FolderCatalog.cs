using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;
using Newtonsoft.Json;

namespace CacheSerializer.Workloads.Models;

/// <summary>The "folders" workload's root: the shape of what the production ASP.NET team cached.</summary>
/// <remarks>
/// A base class with two derived classes, nested lists, some null and some empty collections, and
/// <see cref="System.Version"/> members: the things a general-purpose serializer has to get right.
/// </remarks>
[Serializable]
[DataContract]
public sealed class FolderCatalog : IEquatable<FolderCatalog>
{
    /// <summary>Gets or sets the version of the schema the catalog was built with.</summary>
    [DataMember(Order = 1)]
    public Version SchemaVersion { get; set; } = new(1, 0);

    /// <summary>Gets or sets the tenant that owns the catalog.</summary>
    [DataMember(Order = 2)]
    public string Tenant { get; set; } = "";

    /// <summary>Gets or sets when the catalog was built (UTC).</summary>
    [DataMember(Order = 3)]
    public DateTime Built { get; set; }

    /// <summary>Gets or sets the top-level nodes.</summary>
    [DataMember(Order = 4)]
    [JsonProperty(ItemTypeNameHandling = TypeNameHandling.Auto)]
    public List<NodeBase> Roots { get; set; } = [];

    /// <inheritdoc/>
    public bool Equals(FolderCatalog? other) =>
        other is not null && Equals(SchemaVersion, other.SchemaVersion) && Tenant == other.Tenant &&
        Same.Time(Built, other.Built) && Same.List(Roots, other.Roots);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as FolderCatalog);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(SchemaVersion, Tenant, Same.ListHash(Roots));
}
