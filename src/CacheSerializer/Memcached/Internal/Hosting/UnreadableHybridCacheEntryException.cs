using CacheSerializer.Memcached.Internal.Reading;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>A HybridCache entry the transcoder cannot read, under <see cref="UnreadableItemPolicy.Miss"/>: thrown by
/// <see cref="TranscoderHybridCacheSerializer{T}"/> (already logged and counted) for <see cref="MissOnUnreadableHybridCache"/>
/// to read as a miss. It reaches the application only through a HybridCache that <c>AddHybridCacheTranscoder</c> did not wrap.</summary>
internal sealed class UnreadableHybridCacheEntryException(Exception cause)
    : TranscoderException(
        $"A HybridCache entry cannot be read ({ItemReader.ReasonTag(ItemReader.ReasonOf(cause))}): {cause.Message} "
        + "AddHybridCacheTranscoder wraps every HybridCache registered before it so that such an entry is a miss; "
        + "this one was registered after it, or replaced.",
        ItemReader.ReasonOf(cause),
        (cause as TranscoderException)?.Flags,
        (cause as TranscoderException)?.DataType,
        cause);
