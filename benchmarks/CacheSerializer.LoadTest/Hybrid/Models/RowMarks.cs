namespace CacheSerializer.LoadTest.Hybrid.Models;

/// <summary>The in-memory marks of one <see cref="IHybridRow"/> instance (never serialized): made by a factory, and
/// handed out to a caller.</summary>
internal sealed class RowMarks
{
    private int _madeByFactory;
    private int _served;

    /// <summary>Gets a value indicating whether a factory made the instance (false: deserialized).</summary>
    public bool MadeByFactory => Volatile.Read(ref _madeByFactory) != 0;

    /// <summary>Marks the instance as made by a factory.</summary>
    public void MarkMadeByFactory() => Volatile.Write(ref _madeByFactory, 1);

    /// <summary>Marks the instance as handed out, and returns whether it was before.</summary>
    /// <returns>True when a read had already returned this instance.</returns>
    public bool TakeServed() => Interlocked.Exchange(ref _served, 1) != 0;
}
