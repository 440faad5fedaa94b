namespace CacheSerializer.LoadTest.Deploy;

/// <summary>How the web servers of the deploy read through the cache: each of issue 32's ways, one run each.</summary>
internal enum DeployApi
{
    /// <summary>The README's cache-aside: <c>GetAsync</c>, and on a miss the factory and <c>AddAsync</c> (build copies).</summary>
    CacheAside,

    /// <summary><c>MemcachedClient.GetOrCreateAsync</c>: one factory call per key and build across the farm (build copies).</summary>
    GetOrCreate,

    /// <summary>HybridCache's <c>GetOrCreateAsync</c> over the package's <c>IDistributedCache</c> and serializer, its local
    /// cache off (every read reaches memcached, as in the other ways); updates through its <c>SetAsync</c> and
    /// <c>RemoveAsync</c>.</summary>
    Hybrid,
}
