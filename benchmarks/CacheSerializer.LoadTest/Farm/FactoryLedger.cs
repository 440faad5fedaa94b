using System.Collections.Concurrent;
using System.Diagnostics;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>The "database" of the farm scenario: each hot key's current epoch (one per expiry) and every factory call,
/// attributed to the epoch in force when it started; and when each epoch's value was first seen in memcached, so that
/// a factory call after that, in the same epoch, is known to follow a miss on a stored value (a lost write).</summary>
/// <remarks>Epoch 0 is the first fill of the empty cache; the schedule starts epoch n + 1 just before it expires the key.</remarks>
internal sealed class FactoryLedger
{
    private readonly int[] _epochs;
    private readonly int[] _expired;
    private readonly ConcurrentDictionary<(int Key, int Epoch), int> _calls = new();
    private readonly ConcurrentDictionary<(int Key, int Epoch), long> _seen = new();
    private readonly ConcurrentDictionary<(int Key, int Epoch), bool> _early = new();

    /// <summary>Creates the ledger of <paramref name="keys"/> hot keys, all in epoch 0.</summary>
    /// <param name="keys">The number of hot keys.</param>
    public FactoryLedger(int keys)
    {
        _epochs = new int[keys];
        _expired = new int[keys];
    }

    /// <summary>Gets the current epoch of a key.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The epoch.</returns>
    public int Epoch(int key) => Volatile.Read(ref _epochs[key]);

    /// <summary>Starts the next epoch of a key (before the schedule expires it).</summary>
    /// <param name="key">The key's index.</param>
    public void NextEpoch(int key) => Interlocked.Increment(ref _epochs[key]);

    /// <summary>Records that the expiry of the key's current epoch is done (its delete or invalidation answered).</summary>
    /// <param name="key">The key's index.</param>
    public void Expired(int key) => Volatile.Write(ref _expired[key], Epoch(key));

    /// <summary>Counts one factory call of a key in its current epoch.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The epoch the call belongs to: the value it creates carries it.</returns>
    public int RecordCall(int key)
    {
        int epoch = Epoch(key);
        if (Volatile.Read(ref _expired[key]) != epoch)
        {
            // The expiry is still on its way: the value this call stores may land before the delete and be deleted by
            // it, so a later miss in this epoch proves nothing.
            _early[(key, epoch)] = true;
        }

        _calls.AddOrUpdate((key, epoch), 1, static (_, count) => count + 1);
        return epoch;
    }

    /// <summary>Records a value of <paramref name="key"/> and <paramref name="epoch"/> read back from memcached.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="epoch">The value's epoch.</param>
    public void Seen(int key, int epoch)
    {
        if (key >= 0 && key < _epochs.Length && epoch == Epoch(key))
        {
            _seen.TryAdd((key, epoch), Stopwatch.GetTimestamp());
        }
    }

    /// <summary>Tells whether a factory call of <paramref name="epoch"/>, made for a read of the same epoch that started
    /// at <paramref name="readStarted"/>, followed a miss on a value memcached was known to hold: one of this epoch was
    /// read back before the read started, and every value of the epoch was stored after its expiry was done.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="epoch">The epoch of the call (<see cref="RecordCall"/>).</param>
    /// <param name="readEpoch">The epoch when the read started.</param>
    /// <param name="readStarted">When the read started (<see cref="Stopwatch.GetTimestamp"/>).</param>
    /// <returns>Whether the call is a lost write's.</returns>
    public bool FollowsStoredValue(int key, int epoch, int readEpoch, long readStarted) =>
        epoch == readEpoch && !_early.ContainsKey((key, epoch)) && _seen.TryGetValue((key, epoch), out long seen) && seen < readStarted;

    /// <summary>Returns the factory calls of every expiry of every key: one entry per epoch that began (the first fill
    /// included), key by key.</summary>
    /// <returns>The calls per expiry.</returns>
    public int[] CallsPerExpiry()
    {
        var calls = new List<int>();
        for (int key = 0; key < _epochs.Length; key++)
        {
            for (int epoch = 0; epoch <= Epoch(key); epoch++)
            {
                calls.Add(_calls.GetValueOrDefault((key, epoch)));
            }
        }

        return [.. calls];
    }
}
