namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Stores a <see cref="CacheItem"/> as it is and reads one back: the flags and bytes on the server, seen raw.</summary>
internal sealed class ItemTranscoder : ITranscoder
{
    public CacheItem Serialize(object? value) => (CacheItem)value!;

    public object? Deserialize(CacheItem item) => item;

    public T? Deserialize<T>(CacheItem item) => (T)(object)item;
}
