namespace CacheSerializer.Enyim;

/// <summary>The protocol EnyimMemcachedCore spoke; both read and write the same items as this package's meta protocol.</summary>
public enum MemcachedProtocol
{
    /// <summary>memcached's binary protocol (EnyimMemcachedCore's default).</summary>
    Binary = 0,

    /// <summary>memcached's text protocol.</summary>
    Text = 1,
}
