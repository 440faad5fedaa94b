using System.Security.Cryptography;
using System.Text;

namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>
/// EnyimMemcachedCore's key transformers (src/Enyim.Caching/Memcached/KeyTransformers/ in cnblogs/EnyimMemcachedCore):
/// the key an application's calls name becomes the key memcached stores and the key hashed for placement.
/// </summary>
internal static class KeyTransform
{
    /// <summary>Rewrites <paramref name="key"/> as <paramref name="transformer"/> says.</summary>
    public static string Apply(MemcachedKeyTransformer transformer, string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return transformer switch
        {
#pragma warning disable CA5350 // Not security: the key EnyimMemcachedCore's SHA1KeyTransformer stores, which must be matched byte for byte.
            MemcachedKeyTransformer.Sha1 => Convert.ToBase64String(SHA1.HashData(Encoding.Unicode.GetBytes(key))),
#pragma warning restore CA5350
            MemcachedKeyTransformer.Base64 => Convert.ToBase64String(Encoding.UTF8.GetBytes(key)),
            _ => key,
        };
    }
}
