namespace CacheSerializer.LoadTest.Hybrid.Models;

/// <summary>A cached row of the hybrid scenario, of either build: the key and version it was made from, and marks kept
/// only in memory (never serialized) that tell where a read's value came from.</summary>
/// <remarks>
/// Every contender hands out the very instance its L1 holds for a type that is sealed and
/// <c>[ImmutableObject(true)]</c> (Microsoft's HybridCache and the package's share it; FusionCache's memory level does
/// for any type), and a new instance for a value read from L2 (deserialized) or made by a factory. So a read whose own
/// factory did not run got its value from L1 when the instance was handed out before, from another caller's factory
/// when it was made by one and not yet handed out, and from L2 otherwise.
/// </remarks>
internal interface IHybridRow
{
    /// <summary>Gets the key's number the value was made for.</summary>
    int Key { get; }

    /// <summary>Gets the version of the row the value was made from.</summary>
    int Version { get; }

    /// <summary>Gets the instance's in-memory marks (never serialized).</summary>
    RowMarks Marks { get; }
}
