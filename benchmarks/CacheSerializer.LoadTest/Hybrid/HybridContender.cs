namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The HybridCache implementations the hybrid scenario runs side by side (issue 39, item 7); every one is called
/// through <c>Microsoft.Extensions.Caching.Hybrid.HybridCache</c>, as an application written against it would.</summary>
internal enum HybridContender
{
    /// <summary>The package's own HybridCache (<c>AddMemcachedHybridCache</c>), L1 coherence <c>Bounded</c> (its default).</summary>
    Bounded,

    /// <summary>The package's own HybridCache, L1 coherence <c>Strict</c>: every L1 hit checked with a CAS-only read.</summary>
    Strict,

    /// <summary>Microsoft's HybridCache over the package's <c>IDistributedCache</c> (<c>AddMemcached</c>, <c>AddHybridCache</c>,
    /// <c>AddHybridCacheTranscoder</c>: the registration docs/client.md documented before the package's own).</summary>
    MicrosoftMemcached,

    /// <summary>Microsoft's HybridCache over Redis (<c>AddStackExchangeRedisCache</c>).</summary>
    MicrosoftRedis,

    /// <summary>FusionCache over Redis with its Redis backplane, registered as HybridCache (<c>AsHybridCache</c>).</summary>
    FusionBackplane,

    /// <summary>FusionCache over Redis with its Redis backplane and its Redis distributed locker.</summary>
    FusionLocker,
}
