using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;
using Newtonsoft.Json;

namespace CacheSerializer.Workloads.Models;

/// <summary>A folder of the "folders" workload: nodes nested in nodes.</summary>
[Serializable]
[DataContract]
public sealed class FolderNode : NodeBase
{
    /// <summary>Gets or sets the children; <see langword="null"/> when never listed, empty when the folder is empty.</summary>
    [DataMember(Order = 1)]
    [JsonProperty(ItemTypeNameHandling = TypeNameHandling.Auto)]
    public List<NodeBase>? Children { get; set; }

    /// <summary>Gets or sets whether the folder is shared with other users.</summary>
    [DataMember(Order = 2)]
    public bool IsShared { get; set; }

    /// <inheritdoc/>
    public override bool Equals(NodeBase? other) =>
        base.Equals(other) && other is FolderNode folder && Same.List(Children, folder.Children) && IsShared == folder.IsShared;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as NodeBase);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(base.GetHashCode(), Same.ListHash(Children));
}
