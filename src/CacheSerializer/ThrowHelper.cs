namespace CacheSerializer;

/// <summary>
/// The client's errors, built in one place (ThrowHelper.Memcached.cs), each naming the server, the operation and the fix;
/// the transcoder's are in Transcoding/ThrowHelper.cs. <c>[DoesNotReturn]</c> methods throw; the others return the
/// exception for a <c>throw</c> at the call site.
/// </summary>
internal static partial class ThrowHelper
{
    // Called by the client's HybridCache serializer (Memcached/Internal/Hosting): it belongs with the client's errors, and
    // moves with ThrowHelper.Memcached.cs when that partial goes beside the client.
    public static TranscoderException HybridCacheEntryTooShort(long length, int headerLength) =>
        new(
            $"A HybridCache entry of {length} bytes is shorter than the {headerLength}-byte flags header the package's HybridCache serializer "
            + "writes; it was not written by it.",
            TranscoderErrorKind.Malformed,
            null,
            null);
}
