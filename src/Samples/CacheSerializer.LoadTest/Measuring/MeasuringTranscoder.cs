namespace CacheSerializer.LoadTest.Measuring;

/// <summary>Wraps a contender's transcoder to record the size of every item it writes; reading is passed straight through.</summary>
/// <param name="inner">The contender's transcoder.</param>
/// <param name="itemSizes">Where the payload sizes (bytes) of written items go.</param>
internal sealed class MeasuringTranscoder(ITranscoder inner, ValueHistogram itemSizes) : ITranscoder
{
    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        CacheItem item = inner.Serialize(value);
        itemSizes.Record(item.Data.Count);
        return item;
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item) => inner.Deserialize(item);

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item) => inner.Deserialize<T>(item);
}
