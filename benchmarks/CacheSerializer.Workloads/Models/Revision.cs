using System.Runtime.Serialization;
using CacheSerializer.Workloads.Models.Internal;

namespace CacheSerializer.Workloads.Models;

/// <summary>One revision of a <see cref="DocumentNode"/>.</summary>
[Serializable]
[DataContract]
public sealed class Revision : IEquatable<Revision>
{
    /// <summary>Gets or sets the revision number.</summary>
    [DataMember(Order = 1)]
    public int Number { get; set; }

    /// <summary>Gets or sets when the revision was saved (UTC).</summary>
    [DataMember(Order = 2)]
    public DateTime Saved { get; set; }

    /// <summary>Gets or sets who saved it.</summary>
    [DataMember(Order = 3)]
    public string Author { get; set; } = "";

    /// <inheritdoc/>
    public bool Equals(Revision? other) =>
        other is not null && Number == other.Number && Same.Time(Saved, other.Saved) && Author == other.Author;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as Revision);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Number, Saved, Author);
}
