namespace CacheSerializer.LoadTest.Farm;

/// <summary>How the web servers of the farm scenario read a hot key: the three ways of issue 17, side by side.</summary>
internal enum FarmMode
{
    /// <summary>Plain cache-aside: get, and on a miss the factory and a set (<c>GetAsync</c>, <c>SetAsync</c>). No protection.</summary>
    Plain,

    /// <summary>HybridCache's <c>GetOrCreateAsync</c> over the package's <c>IDistributedCache</c>, local cache off:
    /// protection within each process only.</summary>
    Hybrid,

    /// <summary><c>MemcachedClient.GetOrCreateAsync</c>: one factory call per expiry across the farm; the schedule expires
    /// a key by deleting it, so every expiry is a miss.</summary>
    Farm,

    /// <summary><c>GetOrCreateAsync</c> with a stale-while-revalidate window; the schedule expires a key with
    /// <c>InvalidateAsync</c>, so readers get the stale value at once while one of them refreshes it.</summary>
    FarmStale,
}
