using System.Runtime.Serialization;
using System.Text.Json.Serialization;
using CacheSerializer.Workloads.Models.Internal;
using ProtoBuf;

namespace CacheSerializer.Workloads.Models;

/// <summary>The base of the "folders" workload's nodes: a folder or a document.</summary>
/// <remarks>
/// Each contender's own way of naming the derived type is declared here, so every contender stores the same graph:
/// <see cref="ProtoIncludeAttribute"/> for protobuf-net, <see cref="KnownTypeAttribute"/> for DataContractSerializer, <see cref="JsonDerivedTypeAttribute"/> for System.Text.Json,
/// and <c>ItemTypeNameHandling</c> on the lists that hold nodes for Newtonsoft's BSON (it has no other way without custom converters).
/// </remarks>
[Serializable]
[DataContract]
[KnownType(typeof(FolderNode))]
[KnownType(typeof(DocumentNode))]
[JsonPolymorphic(TypeDiscriminatorPropertyName = "$type")]
[JsonDerivedType(typeof(FolderNode), "folder")]
[JsonDerivedType(typeof(DocumentNode), "document")]
[ProtoInclude(16, typeof(FolderNode))]
[ProtoInclude(17, typeof(DocumentNode))]
public abstract class NodeBase : IEquatable<NodeBase>
{
    /// <summary>Gets or sets the id.</summary>
    [DataMember(Order = 1)]
    public Guid Id { get; set; }

    /// <summary>Gets or sets the display name.</summary>
    [DataMember(Order = 2)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets when the node was created (UTC).</summary>
    [DataMember(Order = 3)]
    public DateTime Created { get; set; }

    /// <summary>Gets or sets the labels; <see langword="null"/> when never labelled, empty when all were removed.</summary>
    [DataMember(Order = 4)]
    public List<string>? Labels { get; set; }

    /// <summary>Gets or sets the description, often absent.</summary>
    [DataMember(Order = 5)]
    public string? Description { get; set; }

    /// <inheritdoc/>
    public virtual bool Equals(NodeBase? other) =>
        other is not null && other.GetType() == GetType() && Id == other.Id && Name == other.Name &&
        Same.Time(Created, other.Created) && Same.List(Labels, other.Labels) && Description == other.Description;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as NodeBase);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(GetType(), Id, Name);
}
