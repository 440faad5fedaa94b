namespace CacheSerializer.LoadTest.Checking;

/// <summary>
/// What the cache must give each key, from the writes of it that completed: the two rules the migration and deploy
/// scenarios check every read against, whatever web server wrote or reads.
/// </summary>
/// <remarks>
/// <para><b>Stale value</b>: a hit of version v is stale when a delete or an overwrite of a later version had completed
/// before the read began. The read snapshots the key's last completed invalidation when it starts; a delete that
/// completes while the read is on its way does not make the read stale.</para>
/// <para><b>Lost hit</b>: a miss on a key whose last write (a fill or an overwrite) memcached stored, with no write of the
/// key started since the read began: memcached held the item, so a miss means the reader looked for it elsewhere (on
/// another server) or could not read it. Only when memcached evicted nothing, as for every scenario's lost writes.</para>
/// Fills and updates of a key are one at a time (under the key's row gate), so its writes are in order.
/// </remarks>
internal sealed class KeyLedger
{
    private const long StateMask = 3;
    private const long Absent = 0;
    private const long Stored = 1;
    private const long Uncertain = 2;

    private readonly long[] _invalidated;
    private readonly long[] _writes;

    /// <summary>Creates the ledger of <paramref name="keys"/> keys, none written.</summary>
    /// <param name="keys">The number of keys.</param>
    public KeyLedger(int keys)
    {
        _invalidated = new long[keys];
        _writes = new long[keys];
    }

    /// <summary>Snapshots what a read that starts now may return.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The snapshot.</returns>
    public ReadStart StartRead(int key) => new(Volatile.Read(ref _invalidated[key]), Volatile.Read(ref _writes[key]));

    /// <summary>Tells whether a hit of <paramref name="version"/> is stale for a read that started at <paramref name="start"/>.</summary>
    /// <param name="start">The read's snapshot.</param>
    /// <param name="version">The version read.</param>
    /// <returns>Whether a delete or overwrite of a later version had completed before the read began.</returns>
    public static bool IsStale(ReadStart start, int version) => version < start.Invalidated;

    /// <summary>Tells whether a miss of a read that started at <paramref name="start"/> is a lost hit.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="start">The read's snapshot.</param>
    /// <returns>Whether memcached had stored the key's last write, and no write of it started since the read began.</returns>
    public bool IsLostHit(int key, ReadStart start) => (start.Writes & StateMask) == Stored && Volatile.Read(ref _writes[key]) == start.Writes;

    /// <summary>Records that a write of the key starts (under its row gate): until it ends, a miss proves nothing.</summary>
    /// <param name="key">The key's index.</param>
    public void WriteStarted(int key) => Volatile.Write(ref _writes[key], (((_writes[key] >> 2) + 1) << 2) | Uncertain);

    /// <summary>Records that a fill or an overwrite ended (under the key's row gate).</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="stored">Whether memcached stored it; if not (or unknown), a later miss proves nothing.</param>
    public void StoreEnded(int key, bool stored) => End(key, stored ? Stored : Uncertain);

    /// <summary>Records that a delete ended (under the key's row gate).</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="completed">Whether it completed (answered); if not, what memcached holds is unknown.</param>
    public void DeleteEnded(int key, bool completed) => End(key, completed ? Absent : Uncertain);

    /// <summary>Records that the delete or overwrite made for version <paramref name="version"/> completed: from now on,
    /// a read of an earlier version is stale.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="version">The version the update wrote to the source of truth.</param>
    public void Invalidated(int key, int version)
    {
        if (version > Volatile.Read(ref _invalidated[key]))
        {
            Volatile.Write(ref _invalidated[key], version);
        }
    }

    private void End(int key, long state) => Volatile.Write(ref _writes[key], (_writes[key] & ~StateMask) | state);

    /// <summary>What a read saw of its key when it started.</summary>
    /// <param name="Invalidated">The last version whose delete or overwrite had completed.</param>
    /// <param name="Writes">The writes of the key started so far, and the state the last one left.</param>
    internal readonly record struct ReadStart(long Invalidated, long Writes);
}
