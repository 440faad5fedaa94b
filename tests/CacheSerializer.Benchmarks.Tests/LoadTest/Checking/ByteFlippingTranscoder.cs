namespace CacheSerializer.Benchmarks.Tests.LoadTest.Checking;

/// <summary>A transcoder that corrupts every item it writes: the first payload byte flipped (every bit), as a faulty
/// transcoder, a bad network card or another writer would. What it reads it hands to the real transcoder unchanged.</summary>
/// <param name="inner">The real transcoder.</param>
internal sealed class ByteFlippingTranscoder(ITranscoder inner) : ITranscoder
{
    public CacheItem Serialize(object? value)
    {
        CacheItem item = inner.Serialize(value);
        byte[] data = item.Data.ToArray();
        data[0] ^= 0xFF;
        return new CacheItem(item.Flags, data);
    }

    public object? Deserialize(CacheItem item) => inner.Deserialize(item);

    public T? Deserialize<T>(CacheItem item) => inner.Deserialize<T>(item);
}
