using System.Runtime.Serialization;

namespace CacheSerializer.Workloads.Models;

/// <summary>The "eight uint64s" workload: eight unsigned 64-bit numbers of every magnitude.</summary>
[Serializable]
[DataContract]
public sealed class EightUInt64s : IEquatable<EightUInt64s>
{
    /// <summary>Gets or sets the first number.</summary>
    [DataMember(Order = 1)]
    public ulong A { get; set; }

    /// <summary>Gets or sets the second number.</summary>
    [DataMember(Order = 2)]
    public ulong B { get; set; }

    /// <summary>Gets or sets the third number.</summary>
    [DataMember(Order = 3)]
    public ulong C { get; set; }

    /// <summary>Gets or sets the fourth number.</summary>
    [DataMember(Order = 4)]
    public ulong D { get; set; }

    /// <summary>Gets or sets the fifth number.</summary>
    [DataMember(Order = 5)]
    public ulong E { get; set; }

    /// <summary>Gets or sets the sixth number.</summary>
    [DataMember(Order = 6)]
    public ulong F { get; set; }

    /// <summary>Gets or sets the seventh number.</summary>
    [DataMember(Order = 7)]
    public ulong G { get; set; }

    /// <summary>Gets or sets the eighth number.</summary>
    [DataMember(Order = 8)]
    public ulong H { get; set; }

    /// <inheritdoc/>
    public bool Equals(EightUInt64s? other) =>
        other is not null && A == other.A && B == other.B && C == other.C && D == other.D &&
        E == other.E && F == other.F && G == other.G && H == other.H;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as EightUInt64s);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(A, B, C, D, E, F, G, H);
}
