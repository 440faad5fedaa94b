namespace CacheSerializer.Workloads.Contenders;

/// <summary>Which form of a workload's value a contender stores.</summary>
public enum ContenderInput
{
    /// <summary>The .NET value itself: the POCO graph, or the primitive. Every general-purpose transcoder.</summary>
    Value = 0,

    /// <summary>The Google.Protobuf generated message holding the same value (the protobuf ceiling).</summary>
    ProtobufMessage = 1,

    /// <summary>
    /// The bytes alone (the floor): for an object, its protobuf encoding; for a primitive, the primitive, which the floor
    /// turns into its fixed-size or UTF-8 bytes.
    /// </summary>
    Payload = 2,

    /// <summary>
    /// The same value as the peers' model classes (<see cref="Peers"/>: MessagePack and MemoryPack attributes), mapped once
    /// at setup by <see cref="Peers.PeerConvert"/>; a primitive is handed as it is.
    /// </summary>
    PeerModel = 3,
}
