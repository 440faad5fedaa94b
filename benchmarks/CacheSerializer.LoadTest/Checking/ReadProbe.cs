namespace CacheSerializer.LoadTest.Checking;

/// <summary>What the transcoder saw during one read: set by <see cref="CheckingTranscoder"/> when the item it was handed
/// could not be read, so the caller can tell a miss the client made of an unreadable item from a key memcached did not have.</summary>
/// <remarks>
/// It flows with the read as an <see cref="AsyncLocal{T}"/>: the client deserializes inside its own async methods,
/// which run in the caller's execution context, so the probe a caller starts is the one its read marks. A read whose
/// probe was not reached is still counted by <see cref="CheckingTranscoder"/>'s own tally.
/// </remarks>
internal sealed class ReadProbe
{
    private static readonly AsyncLocal<ReadProbe?> CurrentProbe = new();

    /// <summary>Gets the probe of the read in flight on this flow, or null.</summary>
    public static ReadProbe? Current => CurrentProbe.Value;

    /// <summary>Gets the reason the item of this read could not be read (the metric's tag: <c>other_contract</c>,
    /// <c>malformed</c>, ...), or null when it was read or absent.</summary>
    public string? Unreadable { get; private set; }

    /// <summary>Starts the probe of a read on the current flow (call it in the async method that reads).</summary>
    /// <returns>The probe.</returns>
    public static ReadProbe Start()
    {
        var probe = new ReadProbe();
        CurrentProbe.Value = probe;
        return probe;
    }

    /// <summary>Records that the read's item could not be read.</summary>
    /// <param name="reason">The reason.</param>
    public void MarkUnreadable(string reason) => Unreadable = reason;
}
