namespace CacheSerializer.Enyim;

/// <summary>What a store does when the key exists or not, as EnyimMemcachedCore's <c>Enyim.Caching.Memcached.StoreMode</c>
/// (same names and values).</summary>
public enum StoreMode
{
    /// <summary>Store only if the key does not exist.</summary>
    Add = 1,

    /// <summary>Store only if the key exists.</summary>
    Replace,

    /// <summary>Store whether or not the key exists.</summary>
    Set,
}
