using System.Collections.Concurrent;

namespace CacheSerializer.LoadTest.Checking;

/// <summary>
/// What the checks of every scenario find wrong in what a read returned, under one name each (docs/loadtest.md,
/// "Nothing wrong goes unseen"): a <b>corruption</b> is a value other than the one the scenario knows is stored, or an
/// item that could not be read outside a deliberate contract change; a <b>lost write</b> is a miss on a key whose last
/// write memcached stored, while it evicted nothing and nothing expired or deleted the key.
/// </summary>
/// <remarks>A miss on a stored key is only a lost write when memcached evicted nothing: <see cref="LostWrites"/> says
/// so from the run's <c>evictions</c>, and is null when the check cannot be made.</remarks>
internal sealed class ReadFindings
{
    private const int MaxSamples = 5;

    private readonly ConcurrentQueue<string> _corruptionSamples = new();
    private readonly ConcurrentQueue<string> _lostWriteSamples = new();
    private long _corruptions;
    private long _missesOnStoredKeys;

    /// <summary>Gets the corruptions found so far.</summary>
    public long Corruptions => Interlocked.Read(ref _corruptions);

    /// <summary>Gets the misses on keys whose last write was stored (lost writes when memcached evicted nothing).</summary>
    public long MissesOnStoredKeys => Interlocked.Read(ref _missesOnStoredKeys);

    /// <summary>Gets the first few corruptions.</summary>
    public IReadOnlyCollection<string> CorruptionSamples => _corruptionSamples;

    /// <summary>Gets the first few misses on stored keys.</summary>
    public IReadOnlyCollection<string> LostWriteSamples => _lostWriteSamples;

    /// <summary>Returns the lost writes of a run in which memcached evicted <paramref name="evictions"/> items: the
    /// misses on stored keys when it evicted none, or null when it did (an eviction explains a miss).</summary>
    /// <param name="missesOnStoredKeys">The misses on stored keys.</param>
    /// <param name="evictions">memcached's <c>evictions</c> over the run, or null when they could not be read (a server
    /// was down or restarted: it lost its items).</param>
    /// <returns>The lost writes, or null.</returns>
    public static long? LostWrites(long missesOnStoredKeys, long? evictions) => evictions == 0 ? missesOnStoredKeys : null;

    /// <summary>Counts a corruption.</summary>
    /// <param name="description">What was read instead of what.</param>
    public void Corruption(string description)
    {
        if (Interlocked.Increment(ref _corruptions) <= MaxSamples)
        {
            _corruptionSamples.Enqueue(description);
        }
    }

    /// <summary>Counts a miss on a key whose last write was stored.</summary>
    /// <param name="description">The key and its last write.</param>
    public void MissOnStoredKey(string description)
    {
        if (Interlocked.Increment(ref _missesOnStoredKeys) <= MaxSamples)
        {
            _lostWriteSamples.Enqueue(description);
        }
    }
}
