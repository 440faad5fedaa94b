namespace CacheSerializer.LoadTest.Checking;

/// <summary>Why an item could not be read, named as the client's <c>cacheserializer.memcached.unreadable_items</c> metric
/// tags it (docs/client.md, "Unreadable items"), so a report's counts and the metric's read alike.</summary>
internal static class UnreadableReasons
{
    /// <summary>Another contract of the type: another build wrote it.</summary>
    public const string OtherContract = "other_contract";

    /// <summary>A type the reader does not know.</summary>
    public const string UnknownType = "unknown_type";

    /// <summary>The reason of an exception thrown at Deserialize: the client's rule (a <see cref="TranscoderException"/>'s
    /// <see cref="TranscoderException.Kind"/>, anything else "other"), in the metric's snake case.</summary>
    /// <param name="ex">What Deserialize threw.</param>
    /// <returns>The reason.</returns>
    public static string Of(Exception ex) => ex is TranscoderException { Kind: not TranscoderErrorKind.Unstorable } transcoder
        ? transcoder.Kind switch
        {
            TranscoderErrorKind.OtherContract => OtherContract,
            TranscoderErrorKind.UnknownType => UnknownType,
            TranscoderErrorKind.WrongType => "wrong_type",
            TranscoderErrorKind.UnknownFlags => "unknown_flags",
            TranscoderErrorKind.Malformed => "malformed",
            _ => "other",
        }
        : "other";
}
