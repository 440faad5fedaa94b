using System.Collections.Concurrent;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The in-process "database" of the hybrid scenario: a version per row (key), bumped by each update; for each row
/// the newest version whose removal from the cache had completed (the floor below which a read is stale); and every
/// factory call, by the (key, version) it read.</summary>
internal sealed class SourceOfTruth
{
    private readonly int[] _versions;
    private readonly int[] _settled;
    private readonly ConcurrentDictionary<(int Key, int Version), int> _calls = new();

    /// <summary>Creates the rows, all at version 0.</summary>
    /// <param name="keys">The number of rows.</param>
    public SourceOfTruth(int keys)
    {
        _versions = new int[keys];
        _settled = new int[keys];
    }

    /// <summary>Gets the number of rows.</summary>
    public int Keys => _versions.Length;

    /// <summary>Gets the current version of a row.</summary>
    /// <param name="key">The row.</param>
    /// <returns>The version.</returns>
    public int Version(int key) => Volatile.Read(ref _versions[key]);

    /// <summary>Gets the newest version of a row whose removal had completed: a read that starts now and returns an older
    /// one is stale.</summary>
    /// <param name="key">The row.</param>
    /// <returns>The version (0 before any update).</returns>
    public int Settled(int key) => Volatile.Read(ref _settled[key]);

    /// <summary>Updates a row: its next version.</summary>
    /// <param name="key">The row.</param>
    /// <returns>The new version.</returns>
    public int Update(int key) => Interlocked.Increment(ref _versions[key]);

    /// <summary>Records that the removal made after the update to <paramref name="version"/> returned.</summary>
    /// <param name="key">The row.</param>
    /// <param name="version">The version the update made.</param>
    public void Removed(int key, int version)
    {
        int seen = Volatile.Read(ref _settled[key]);
        while (seen < version)
        {
            int was = Interlocked.CompareExchange(ref _settled[key], version, seen);
            if (was == seen)
            {
                return;
            }

            seen = was;
        }
    }

    /// <summary>Reads a row for a factory call, and counts the call against the version it read.</summary>
    /// <param name="key">The row.</param>
    /// <returns>The version read.</returns>
    public int Query(int key)
    {
        int version = Version(key);
        _calls.AddOrUpdate((key, version), 1, static (_, count) => count + 1);
        return version;
    }

    /// <summary>Returns the factory calls of every (key, version) that had at least one.</summary>
    /// <returns>The calls, in no particular order.</returns>
    public int[] CallsPerVersion() => [.. _calls.Values];
}
