namespace CacheSerializer.Memcached;

/// <summary>What a read does with an item the transcoder cannot read (written under another contract, naming an unknown
/// type, holding another type, under unknown flags, or corrupt): <see cref="MemcachedClientOptions.OnUnreadableItem"/>.</summary>
public enum UnreadableItemPolicy
{
    /// <summary>The read is a miss: <c>GetAsync</c> returns not found, <c>GetManyAsync</c> leaves the key out,
    /// <c>GetOrCreateAsync</c> runs the factory and stores its value, HybridCache (with
    /// <c>AddHybridCacheTranscoder</c>) returns a fresh value. Each type and reason is logged once, and every item is
    /// counted (<c>cacheserializer.memcached.unreadable_items</c>). The default: during a rolling deploy, old and new
    /// builds share the cache and read each other's items.</summary>
    Miss,

    /// <summary>The read throws the transcoder's exception (<see cref="TranscoderException"/>, with its
    /// <see cref="TranscoderException.Kind"/>; <see cref="ContractMismatchException"/> for another contract), as before
    /// this option existed. Still counted, not logged.</summary>
    Throw,
}
