namespace CacheSerializer.Memcached;

/// <summary>How the package's HybridCache keeps its in-process copies (L1) in step with removals made on other servers
/// (docs/hybrid.md, "L1 coherence without Redis").</summary>
public enum HybridCacheCoherence
{
    /// <summary>An L1 hit makes no request, and is served only while this server's last complete poll of the invalidation
    /// log started within <see cref="MemcachedHybridCacheOptions.InvalidationBound"/>; removals return that bound after
    /// their log item is written, so no read that starts after one returns gets the old value from any L1.</summary>
    Bounded,

    /// <summary>Every L1 hit is first checked with a CAS-only read (no value bytes): no read after a completed change
    /// returns the old value, whoever made the change. Removals by key need not wait; removals by tag still wait the bound.</summary>
    Strict,
}
