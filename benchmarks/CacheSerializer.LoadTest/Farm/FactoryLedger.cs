using System.Collections.Concurrent;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>The "database" of the farm scenario: each hot key's current epoch (one per expiry) and every factory call,
/// attributed to the epoch in force when it started.</summary>
/// <remarks>Epoch 0 is the first fill of the empty cache; the schedule starts epoch n + 1 just before it expires the key.</remarks>
internal sealed class FactoryLedger
{
    private readonly int[] _epochs;
    private readonly ConcurrentDictionary<(int Key, int Epoch), int> _calls = new();

    /// <summary>Creates the ledger of <paramref name="keys"/> hot keys, all in epoch 0.</summary>
    /// <param name="keys">The number of hot keys.</param>
    public FactoryLedger(int keys)
    {
        _epochs = new int[keys];
    }

    /// <summary>Gets the current epoch of a key.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The epoch.</returns>
    public int Epoch(int key) => Volatile.Read(ref _epochs[key]);

    /// <summary>Starts the next epoch of a key (before the schedule expires it).</summary>
    /// <param name="key">The key's index.</param>
    public void NextEpoch(int key) => Interlocked.Increment(ref _epochs[key]);

    /// <summary>Counts one factory call of a key in its current epoch.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The epoch the call belongs to: the value it creates carries it.</returns>
    public int RecordCall(int key)
    {
        int epoch = Epoch(key);
        _calls.AddOrUpdate((key, epoch), 1, static (_, count) => count + 1);
        return epoch;
    }

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
