using CacheSerializer.LoadTest.Checking;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>
/// The deploy's source of truth (its "database"): each key's row is at a version, which updates raise; a row gate puts
/// one fill or update of a key at a time, as a database row lock would; and the ledger of the cache writes that
/// completed, against which every read is checked (stale values, lost writes).
/// </summary>
/// <remarks>Version v of key k is the value each build's factory makes from (k, v) (<see cref="DeployBuild.Expected"/>);
/// the row gate keeps cache-aside's own race out (a fill that read version v storing it after an update's delete of v
/// has completed), so a stale value counted is the deploy's, never the application pattern's.</remarks>
internal sealed class DeployRows
{
    private readonly int[] _versions;
    private readonly SemaphoreSlim[] _gates;

    /// <summary>Creates the rows of <paramref name="keys"/> keys, each at version 1.</summary>
    /// <param name="keys">The number of keys.</param>
    public DeployRows(int keys)
    {
        _versions = new int[keys];
        Array.Fill(_versions, 1);
        _gates = [.. Enumerable.Range(0, keys).Select(_ => new SemaphoreSlim(1, 1))];
        Ledger = new KeyLedger(keys);
    }

    /// <summary>Gets the ledger of the cache writes of every key.</summary>
    public KeyLedger Ledger { get; }

    /// <summary>Returns the gate of a key's row: one fill or update of the key at a time.</summary>
    /// <param name="k">The key's number.</param>
    /// <returns>The gate.</returns>
    public SemaphoreSlim Gate(int k) => _gates[k];

    /// <summary>Reads a key's current version (a fill, under the row's gate; or a check of a value read).</summary>
    /// <param name="k">The key's number.</param>
    /// <returns>The version.</returns>
    public int Version(int k) => Volatile.Read(ref _versions[k]);

    /// <summary>Raises a key's version: an update of the source of truth, under the row's gate.</summary>
    /// <param name="k">The key's number.</param>
    /// <returns>The new version.</returns>
    public int Update(int k) => Interlocked.Increment(ref _versions[k]);
}
