namespace CacheSerializer;

/// <summary>What a <see cref="TranscoderException"/> reports: a value that cannot be stored, or why an item cannot be read.</summary>
/// <remarks>
/// Every kind but <see cref="Unstorable"/> is an item this reader cannot answer faithfully; the memcached client reports
/// such a read as a miss (<c>MemcachedClientOptions.OnUnreadableItem</c>), logged and counted with the kind as its reason.
/// </remarks>
public enum TranscoderErrorKind
{
    /// <summary>Not classified: thrown by code that gave no kind (an application's own transcoder or codec).</summary>
    Other = 0,

    /// <summary>A value that cannot be stored faithfully (a type no codec stores, a protobuf trap, too large): a programming error, raised at Serialize.</summary>
    Unstorable,

    /// <summary>An item written under another contract of its type, by another build of the application (<see cref="ContractMismatchException"/>).</summary>
    OtherContract,

    /// <summary>An item naming a type this reader does not know: renamed, removed, or not yet used in this process.</summary>
    UnknownType,

    /// <summary>An item holding another type than the one asked for (or null where the type cannot hold it).</summary>
    WrongType,

    /// <summary>An item under flags nothing here reads: another transcoder's, or the BinaryFormatter fallback's while it is off.</summary>
    UnknownFlags,

    /// <summary>An item whose bytes cannot be read: truncated, corrupt, a failed decompression, a body the engine rejects.</summary>
    Malformed,
}
