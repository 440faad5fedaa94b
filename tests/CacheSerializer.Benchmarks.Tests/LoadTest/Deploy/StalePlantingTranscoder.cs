namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

/// <summary>A transcoder that hands the deploy's "none" change one stale value: the first product it reads at version 3
/// or later comes back as version 1 of its key (a value two updates old), as a copy or an in-process cache that missed
/// an invalidation would serve it. What it writes, and every other read, it leaves to the real transcoder. Every web
/// server's transcoder shares one <see cref="StalePlanting"/>, so the run holds the planted values it asks for.</summary>
/// <param name="inner">The real transcoder.</param>
/// <param name="planting">Where the planted values are recorded.</param>
internal sealed class StalePlantingTranscoder(ITranscoder inner, StalePlanting planting) : ITranscoder
{
    public CacheItem Serialize(object? value) => inner.Serialize(value);

    public object? Deserialize(CacheItem item)
    {
        object? value = inner.Deserialize(item);
        planting.Plant(value);
        return value;
    }

    public T? Deserialize<T>(CacheItem item)
    {
        T? value = inner.Deserialize<T>(item);
        planting.Plant(value);
        return value;
    }
}
