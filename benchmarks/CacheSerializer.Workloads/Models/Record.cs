using System.Runtime.Serialization;

namespace CacheSerializer.Workloads.Models;

/// <summary>One (id, string) entry of the "records" workload.</summary>
[Serializable]
[DataContract]
public sealed class Record : IEquatable<Record>
{
    /// <summary>Gets or sets the id.</summary>
    [DataMember(Order = 1)]
    public int Id { get; set; }

    /// <summary>Gets or sets the text.</summary>
    [DataMember(Order = 2)]
    public string Text { get; set; } = "";

    /// <inheritdoc/>
    public bool Equals(Record? other) => other is not null && Id == other.Id && Text == other.Text;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as Record);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Id, Text);
}
