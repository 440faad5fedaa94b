using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;

namespace CacheSerializer.Workloads.Models;

/// <summary>One entry of the "large object" workload's folder tree.</summary>
[Serializable]
[DataContract]
public sealed class FolderEntry : IEquatable<FolderEntry>
{
    /// <summary>Gets or sets the id.</summary>
    [DataMember(Order = 1)]
    public Guid Id { get; set; }

    /// <summary>Gets or sets the id of the user who owns the entry.</summary>
    [DataMember(Order = 2)]
    public int OwnerId { get; set; }

    /// <summary>Gets or sets the name, 5 to 40 characters.</summary>
    [DataMember(Order = 3)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets the full path, the names of the folders above joined by '/'.</summary>
    [DataMember(Order = 4)]
    public string Path { get; set; } = "";

    /// <summary>Gets or sets when the entry was created (UTC).</summary>
    [DataMember(Order = 5)]
    public DateTime Created { get; set; }

    /// <summary>Gets or sets when the entry was last modified (UTC).</summary>
    [DataMember(Order = 6)]
    public DateTime Modified { get; set; }

    /// <summary>Gets or sets what the entry is.</summary>
    [DataMember(Order = 7)]
    public EntryKind Kind { get; set; }

    /// <summary>Gets or sets whether the user marked the entry as a favourite.</summary>
    [DataMember(Order = 8)]
    public bool IsFavorite { get; set; }

    /// <summary>Gets or sets the size in bytes (0 for folders).</summary>
    [DataMember(Order = 9)]
    public long Size { get; set; }

    /// <summary>Gets or sets the tags, 0 to 5.</summary>
    [DataMember(Order = 10)]
    public List<string> Tags { get; set; } = [];

    /// <summary>Gets or sets who else may use the entry.</summary>
    [DataMember(Order = 11)]
    public List<Permission> Permissions { get; set; } = [];

    /// <inheritdoc/>
    public bool Equals(FolderEntry? other) =>
        other is not null && Id == other.Id && OwnerId == other.OwnerId && Name == other.Name && Path == other.Path &&
        Same.Time(Created, other.Created) && Same.Time(Modified, other.Modified) && Kind == other.Kind &&
        IsFavorite == other.IsFavorite && Size == other.Size && Same.List(Tags, other.Tags) &&
        Same.List(Permissions, other.Permissions);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as FolderEntry);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Id, Name, Path);
}
