namespace CacheSerializer;

/// <summary>
/// The contract a <see cref="ProtobufTranscoder"/> stores one object type under in this build: its canonical description
/// (everything that decides the bytes of its bodies) and the fingerprint every item of the type carries.
/// </summary>
/// <remarks>
/// An item is read only by a build whose fingerprint of its type is the same; any other build reads it as a miss. Keep a
/// snapshot of the contracts an application caches (<see cref="ContractSnapshot"/>) to know before a deploy which types'
/// entries will be misses while old and new builds share the cache.
/// </remarks>
public sealed class CacheContract
{
    internal CacheContract(Type type, string name, uint fingerprint, string description)
    {
        Type = type;
        Name = name;
        Fingerprint = fingerprint;
        Description = description;
    }

    /// <summary>Gets the type.</summary>
    public Type Type { get; }

    /// <summary>Gets the stable name the type is stored as (namespace-qualified, no assembly), or its Google.Protobuf message name.</summary>
    public string Name { get; }

    /// <summary>Gets the fingerprint every item of the type carries: the hash of <see cref="Description"/>.</summary>
    public uint Fingerprint { get; }

    /// <summary>Gets the canonical description of the contract, as text (docs/format.md, "Contract fingerprint").</summary>
    public string Description { get; }

    /// <summary>Returns the name and the fingerprint.</summary>
    public override string ToString() => $"{Name} 0x{Fingerprint:X8}";
}
