using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The receive copies of a get: rented and given back for the package's transcoder (which keeps no reference to
/// them), never for a transcoder that may keep the item's array.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientReadBufferTests(MemcachedServerFixture fixture)
{
    [Fact]
    public async Task GetAsync_TranscoderKeepingTheItemsArray_EveryValueStaysIntactAfterLaterReads()
    {
        using MemcachedClient client = fixture.CreateClient(configure: o => o.Transcoder = new SegmentKeepingTranscoder());
        string[] keys = Enumerable.Range(0, 200).Select(i => MemcachedServerFixture.UniqueKey($"keep{i}")).ToArray();
        await Task.WhenAll(keys.Select((k, i) => client.SetAsync(k, Enumerable.Repeat((byte)i, 10_000).ToArray())));

        ArraySegment<byte>[] first = await Task.WhenAll(keys.Select(async k => (await client.GetAsync<ArraySegment<byte>>(k)).Value));
        await Task.WhenAll(keys.Reverse().Select(k => client.GetAsync<ArraySegment<byte>>(k)));

        for (int i = 0; i < keys.Length; i++)
        {
            Assert.True(first[i].AsSpan().IndexOfAnyExcept((byte)i) < 0, $"value {i} was overwritten after it was returned");
            Assert.Equal(10_000, first[i].Count);
        }
    }

    [Fact]
    public async Task GetAndGetMany_PackageTranscoderWithRentedCopies_EveryValueReadBackExactly()
    {
        using MemcachedClient client = fixture.CreateClient(2);
        string[] keys = Enumerable.Range(0, 300).Select(i => MemcachedServerFixture.UniqueKey($"rent{i}")).ToArray();
        await Task.WhenAll(keys.Select((k, i) => client.SetAsync(k, Enumerable.Repeat((byte)i, 1_000 + i).ToArray())));

        byte[]?[] single = await Task.WhenAll(keys.Select(k => client.GetValueAsync<byte[]>(k)));
        IReadOnlyDictionary<string, byte[]?> many = await client.GetManyAsync<byte[]>(keys);

        for (int i = 0; i < keys.Length; i++)
        {
            byte[] expected = Enumerable.Repeat((byte)i, 1_000 + i).ToArray();
            Assert.Equal(expected, single[i]);
            Assert.Equal(expected, many[keys[i]]);
        }
    }

    /// <summary>Returns the item's bytes as the very segment it was given: a transcoder that keeps the client's array.</summary>
    private sealed class SegmentKeepingTranscoder : ITranscoder
    {
        public CacheItem Serialize(object? value) => new(0xFA52, new ArraySegment<byte>((byte[])value!));

        public object? Deserialize(CacheItem item) => item.Data;

        public T? Deserialize<T>(CacheItem item) => (T)Deserialize(item)!;
    }
}
