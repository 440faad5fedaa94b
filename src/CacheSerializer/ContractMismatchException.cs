namespace CacheSerializer;

/// <summary>
/// An item written under another contract of its type than the reader's: another build of the application, whose model
/// of the type differs in something that decides the bytes (a member added, retyped or renumbered, a default value, a
/// subtype, null-wrapping). Its body is never parsed, so it can never come back as a wrong value.
/// </summary>
/// <remarks>
/// Expected during a rolling deploy, while old and new builds share a cache: map it to a miss (the memcached client
/// does, by default). The fingerprints are the hashes of the two contracts' canonical descriptions (docs/format.md,
/// "Contract fingerprint"); <c>ProtobufTranscoder.DescribeContract</c> gives this build's description.
/// </remarks>
public sealed class ContractMismatchException : TranscoderException
{
    /// <summary>Creates an exception for an item of <paramref name="storedType"/> written under another contract.</summary>
    /// <param name="message">What happened and what to do.</param>
    /// <param name="flags">The item's flags.</param>
    /// <param name="dataType">The type the caller asked for, if known.</param>
    /// <param name="storedType">The type the item holds.</param>
    /// <param name="storedFingerprint">The fingerprint the item carries.</param>
    /// <param name="fingerprint">This reader's fingerprint of <paramref name="storedType"/>.</param>
    public ContractMismatchException(string message, uint flags, Type? dataType, Type storedType, uint storedFingerprint, uint fingerprint)
        : base(message, TranscoderErrorKind.OtherContract, flags, dataType)
    {
        StoredType = storedType;
        StoredFingerprint = storedFingerprint;
        Fingerprint = fingerprint;
    }

    /// <summary>Gets the type the item holds.</summary>
    public Type StoredType { get; }

    /// <summary>Gets the fingerprint of the contract the item was written under.</summary>
    public uint StoredFingerprint { get; }

    /// <summary>Gets this reader's fingerprint of <see cref="StoredType"/>'s contract.</summary>
    public uint Fingerprint { get; }
}
