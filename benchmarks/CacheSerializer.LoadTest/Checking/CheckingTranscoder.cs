using System.Collections.Concurrent;

namespace CacheSerializer.LoadTest.Checking;

/// <summary>
/// Wraps a scenario's transcoder to count every item it cannot read, by reason, and to mark the read it happened in
/// (<see cref="ReadProbe"/>). Since <c>MemcachedClientOptions.OnUnreadableItem = Miss</c> became the default, the
/// client turns such an item into a miss; the scenarios keep that default, so this is where they see it.
/// </summary>
/// <remarks>
/// Each pass, farm mode and deploy web server wraps its own transcoder, so the counts are its own: nothing
/// process-wide (the client's metric is shared by every client in the process, tests running beside each other included).
/// </remarks>
/// <param name="inner">The scenario's transcoder.</param>
/// <param name="read">Told every value read back (the farm confirms from it that a value was in memcached), or null.</param>
/// <param name="written">Told every item written (the migration counts their sizes and formats per phase), or null.</param>
internal sealed class CheckingTranscoder(ITranscoder inner, Action<object?>? read = null, Action<CacheItem>? written = null) : ITranscoder
{
    private readonly ConcurrentDictionary<string, long> _unreadable = new(StringComparer.Ordinal);

    /// <summary>Gets the transcoder it wraps.</summary>
    public ITranscoder Inner => inner;

    /// <summary>Gets the items that could not be read so far.</summary>
    public long Unreadable => _unreadable.Values.Sum();

    /// <summary>Returns the items that could not be read so far, by reason (the metric's tags), in name order.</summary>
    /// <returns>The counts.</returns>
    public IReadOnlyDictionary<string, long> UnreadableByReason() => new SortedDictionary<string, long>(_unreadable, StringComparer.Ordinal);

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        CacheItem item = inner.Serialize(value);
        written?.Invoke(item);
        return item;
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item)
    {
        object? value;
        try
        {
            value = inner.Deserialize(item);
        }
        catch (Exception ex) when (ex is not (OperationCanceledException or OutOfMemoryException))
        {
            Count(ex);
            throw;
        }

        read?.Invoke(value);
        return value;
    }

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        T? value;
        try
        {
            value = inner.Deserialize<T>(item);
        }
        catch (Exception ex) when (ex is not (OperationCanceledException or OutOfMemoryException))
        {
            Count(ex);
            throw;
        }

        read?.Invoke(value);
        return value;
    }

    private void Count(Exception ex)
    {
        string reason = UnreadableReasons.Of(ex);
        _unreadable.AddOrUpdate(reason, 1, static (_, n) => n + 1);
        ReadProbe.Current?.MarkUnreadable(reason);
    }
}
