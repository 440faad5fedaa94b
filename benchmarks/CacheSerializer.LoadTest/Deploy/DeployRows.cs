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

    // Per build (1, 2) and key: the row's version when a read or fill of that build last saw the key; -1 never seen.
    private readonly int[][] _seen;

    /// <summary>Creates the rows of <paramref name="keys"/> keys, each at version 1.</summary>
    /// <param name="keys">The number of keys.</param>
    public DeployRows(int keys)
    {
        _versions = new int[keys];
        Array.Fill(_versions, 1);
        _gates = [.. Enumerable.Range(0, keys).Select(_ => new SemaphoreSlim(1, 1))];
        Ledger = new KeyLedger(keys);
        _seen = [new int[keys], new int[keys]];
        Array.Fill(_seen[0], 1); // build 1 stored version 1 of every key before the deploy
        Array.Fill(_seen[1], -1); // build 2 has seen nothing
    }

    /// <summary>Records that build <paramref name="build"/> read key <paramref name="k"/> (a hit) or filled it when the
    /// row was at <paramref name="version"/> (read when the read began, or under the gate for a fill).</summary>
    public void Seen(int build, int k, int version) => Volatile.Write(ref _seen[build - 1][k], version);

    /// <summary>Returns the row's version when build <paramref name="build"/> last read or filled key <paramref name="k"/>
    /// (-1: never); a read takes it when it begins, so a fill that lands while the read is on its way does not count.</summary>
    public int SeenVersion(int build, int k) => Volatile.Read(ref _seen[build - 1][k]);

    /// <summary>Tells whether a miss of key <paramref name="k"/> by a read that began when its build had last seen
    /// version <paramref name="seen"/> is one an update caused: the key was updated (its version raised, before its
    /// delete or overwrite is sent) since, so without the update it would have hit. A build's first miss of a key is the deploy's.</summary>
    public bool MissCausedByUpdate(int k, int seen) => seen >= 0 && Version(k) > seen;

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
