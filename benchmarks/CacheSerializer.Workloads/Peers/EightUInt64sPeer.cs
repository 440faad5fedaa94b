using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>Eight uint64s as MessagePack and MemoryPack users write them (<see cref="Models.EightUInt64s"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class EightUInt64sPeer : PeerModel<EightUInt64sPeer>
{
    /// <summary>Gets or sets the first number.</summary>
    [Key(0)]
    public ulong A { get; set; }

    /// <summary>Gets or sets the second number.</summary>
    [Key(1)]
    public ulong B { get; set; }

    /// <summary>Gets or sets the third number.</summary>
    [Key(2)]
    public ulong C { get; set; }

    /// <summary>Gets or sets the fourth number.</summary>
    [Key(3)]
    public ulong D { get; set; }

    /// <summary>Gets or sets the fifth number.</summary>
    [Key(4)]
    public ulong E { get; set; }

    /// <summary>Gets or sets the sixth number.</summary>
    [Key(5)]
    public ulong F { get; set; }

    /// <summary>Gets or sets the seventh number.</summary>
    [Key(6)]
    public ulong G { get; set; }

    /// <summary>Gets or sets the eighth number.</summary>
    [Key(7)]
    public ulong H { get; set; }
}
