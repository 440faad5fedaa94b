using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;

namespace CacheSerializer.Workloads.Models;

/// <summary>A document of the "folders" workload.</summary>
[Serializable]
[DataContract]
public sealed class DocumentNode : NodeBase
{
    /// <summary>Gets or sets the length in bytes.</summary>
    [DataMember(Order = 1)]
    public long Length { get; set; }

    /// <summary>Gets or sets the media type.</summary>
    [DataMember(Order = 2)]
    public string ContentType { get; set; } = "";

    /// <summary>Gets or sets the version of the format the document is written in, when known.</summary>
    [DataMember(Order = 3)]
    public Version? FormatVersion { get; set; }

    /// <summary>Gets or sets the revisions; <see langword="null"/> when not tracked, empty when none yet.</summary>
    [DataMember(Order = 4)]
    public List<Revision>? Revisions { get; set; }

    /// <inheritdoc/>
    public override bool Equals(NodeBase? other) =>
        base.Equals(other) && other is DocumentNode document && Length == document.Length &&
        ContentType == document.ContentType && Equals(FormatVersion, document.FormatVersion) &&
        Same.List(Revisions, document.Revisions);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as NodeBase);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(base.GetHashCode(), Length);
}
