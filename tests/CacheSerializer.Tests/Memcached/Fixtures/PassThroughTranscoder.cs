namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>
/// Stores byte arrays as they are, with no size limit of its own: for tests of the client's own checks, which the
/// package's transcoder would otherwise pre-empt at Serialize.
/// </summary>
internal sealed class PassThroughTranscoder : ITranscoder
{
    public CacheItem Serialize(object? value) => new(0xFA52, new ArraySegment<byte>((byte[])value!));

    public object? Deserialize(CacheItem item) => item.Data.ToArray();

    public T? Deserialize<T>(CacheItem item) => (T)Deserialize(item)!;
}
