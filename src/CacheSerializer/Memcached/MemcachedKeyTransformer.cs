namespace CacheSerializer.Memcached;

/// <summary>
/// How a caller's key is rewritten before it is placed and stored: <see cref="MemcachedClientOptions.KeyTransformer"/>.
/// The rewritten key is what memcached holds, so every client sharing a cache must rewrite alike; the choices are
/// EnyimMemcachedCore's key transformers, for an application switching from it (docs/migrating-from-enyim.md).
/// </summary>
public enum MemcachedKeyTransformer
{
    /// <summary>The key as it is (EnyimMemcachedCore's <c>DefaultKeyTransformer</c>, which only refuses keys with control
    /// characters or spaces; this package stores those too, in the meta protocol's base64 key mode). The default.</summary>
    None = 0,

    /// <summary>EnyimMemcachedCore's <c>SHA1KeyTransformer</c>: the base64 of the SHA-1 of the key's UTF-16 (little-endian)
    /// code units, 28 characters.</summary>
    Sha1 = 1,

    /// <summary>EnyimMemcachedCore's <c>Base64KeyTransformer</c>: the base64 of the key's UTF-8 bytes.</summary>
    Base64 = 2,
}
