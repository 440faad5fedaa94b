using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using FsCheck;
using FsCheck.Fluent;

namespace CacheSerializer.Tests.Memcached;

[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientPropertyTests(MemcachedServerFixture fixture)
{
    [Fact]
    public void SetThenGet_AnyKeyAndValue_ComesBackEqual()
    {
        using MemcachedClient client = fixture.CreateClient(serverCount: 3, o => o.KeyPrefix = Guid.NewGuid().ToString("N"));
        Check.One(Config.QuickThrowOnFailure.WithMaxTest(200), Prop.ForAll(ArbMap.Default.ArbFor<string>(), ArbMap.Default.ArbFor<byte[]>(), (string key, byte[] value) =>
        {
            key ??= string.Empty;
            value ??= [];
            client.SetAsync(key, value).GetAwaiter().GetResult();
            MemcachedGetResult<byte[]> read = client.GetAsync<byte[]>(key).GetAwaiter().GetResult();
            return read.Found && read.Value!.AsSpan().SequenceEqual(value);
        }));
    }
}
