using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

/// <summary>
/// EnyimMemcachedCore's key transformers (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/Memcached/KeyTransformers/SHA1KeyTransformer.cs: Convert.ToBase64String(SHA1 of Encoding.Unicode
/// bytes); Base64KeyTransformer.cs: Convert.ToBase64String of Encoding.UTF8 bytes). The vectors were computed
/// with Python's hashlib and base64 from the same definitions: <c>b64encode(sha1(key.encode('utf-16-le')).digest())</c>.
/// </summary>
public sealed class KeyTransformTests
{
    [Theory]
    [InlineData(MemcachedKeyTransformer.Sha1, "user:42", "whLpJAxDoReqEM0OKs6b91Xd8K4=")]
    [InlineData(MemcachedKeyTransformer.Sha1, "Zoë", "E/OLVh9kvvGagohSdwENNMt7f34=")]
    [InlineData(MemcachedKeyTransformer.Sha1, "", "2jmj7l5rSw0yVb/vlWAYkK/YBwk=")]
    [InlineData(MemcachedKeyTransformer.Base64, "user:42", "dXNlcjo0Mg==")]
    [InlineData(MemcachedKeyTransformer.Base64, "Zoë", "Wm/Dqw==")]
    [InlineData(MemcachedKeyTransformer.None, "user 42", "user 42")]
    public void Apply_EnyimTransformer_GivesItsKey(MemcachedKeyTransformer transformer, string key, string expected)
    {
        Assert.Equal(expected, KeyTransform.Apply(transformer, key));
    }

    [Fact]
    public void Apply_NullKey_Throws()
    {
        Assert.Throws<ArgumentNullException>(() => KeyTransform.Apply(MemcachedKeyTransformer.Sha1, null!));
    }
}
