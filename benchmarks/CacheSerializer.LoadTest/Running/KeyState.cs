namespace CacheSerializer.LoadTest.Running;

/// <summary>What a pass last wrote under one key, and the gate that keeps one operation at a time on it.</summary>
/// <remarks>
/// One operation per key at a time makes every read exactly checkable: the value must be the last write that was
/// stored. A write that failed may or may not have reached the server (docs/client.md), so it joins the values a later
/// read may return until a write succeeds. Users choose keys at random over the whole key space, so they rarely wait here.
/// </remarks>
internal sealed class KeyState
{
    private readonly List<(int Variant, int Stamp)> _acceptable = [];
    private bool _lastStored;

    /// <summary>Gets the gate: one operation on this key at a time.</summary>
    public SemaphoreSlim Gate { get; } = new(1, 1);

    /// <summary>Gets a value indicating whether anything was written under the key in this pass.</summary>
    public bool Written => _acceptable.Count > 0;

    /// <summary>Gets the values a read may return now (a miss is always allowed: memcached may evict).</summary>
    public IReadOnlyList<(int Variant, int Stamp)> Acceptable => _acceptable;

    /// <summary>Gets a value indicating whether the last write was one the server confirmed: a miss then is a lost
    /// write, unless memcached evicted the item (nothing in a pass expires or deletes a key).</summary>
    public bool LastWriteStored => _lastStored;

    /// <summary>Records a write the server confirmed: only it may be read from now on.</summary>
    /// <param name="variant">The variant written.</param>
    /// <param name="stamp">Its stamp.</param>
    public void Stored(int variant, int stamp)
    {
        _acceptable.Clear();
        _acceptable.Add((variant, stamp));
        _lastStored = true;
    }

    /// <summary>Records a write that failed: it may or may not be on the server, so it may be read too.</summary>
    /// <param name="variant">The variant written.</param>
    /// <param name="stamp">Its stamp.</param>
    public void Uncertain(int variant, int stamp)
    {
        _acceptable.Add((variant, stamp));
        _lastStored = false;
    }
}
