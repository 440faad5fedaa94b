using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>
/// The source of truth of the migration scenario (its "database"): for each key, a user's folder tree (the workloads'
/// <see cref="UserFolderTree"/>) at a version, changed by updates; a row gate that puts one fill or update of a key
/// at a time; and the check of a value read from the cache against the version it claims to be.
/// </summary>
/// <remarks>
/// Version v of key k is made from (k, v) by the workloads' generator, and its <see cref="UserFolderTree.Loaded"/>
/// (when the tree was read from the database) is <see cref="Epoch"/> + v seconds: a value names its version, and the
/// rest of it must be that version's, member by member. Only the current version of each key is kept; an older one is
/// made again when a read returns it.
/// <para>Fills and updates of one key take its row gate, as a database row lock would: a fill that read version v
/// cannot store it after an update's delete of v has completed, so cache-aside's own race (which no migration causes)
/// never makes a stale value here, and every stale value counted is the migration's.</para>
/// </remarks>
internal sealed class VersionedStore
{
    /// <summary>The <see cref="UserFolderTree.Loaded"/> of version 0; version v was loaded v seconds later.</summary>
    public static readonly DateTime Epoch = new(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private readonly Row[] _rows;
    private readonly SemaphoreSlim[] _gates;
    private readonly int _entries;
    private readonly ulong _seed;

    /// <summary>Creates the store, every key at version 1.</summary>
    /// <param name="keys">The number of keys.</param>
    /// <param name="entries">The entries of every tree.</param>
    /// <param name="seed">The seed of the values.</param>
    public VersionedStore(int keys, int entries, ulong seed)
    {
        _entries = entries;
        _seed = seed;
        _rows = new Row[keys];
        _gates = new SemaphoreSlim[keys];
        for (int k = 0; k < keys; k++)
        {
            _rows[k] = new Row(1, Create(k, 1));
            _gates[k] = new SemaphoreSlim(1, 1);
        }
    }

    /// <summary>Gets the number of keys.</summary>
    public int Keys => _rows.Length;

    /// <summary>Returns the gate of a key's row: one fill or update of the key at a time.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The gate.</returns>
    public SemaphoreSlim Gate(int key) => _gates[key];

    /// <summary>Reads a key's current version and value (a fill, under the row's gate).</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The version and its value.</returns>
    public (int Version, UserFolderTree Value) Read(int key)
    {
        Row row = Volatile.Read(ref _rows[key]);
        return (row.Version, row.Value);
    }

    /// <summary>Changes a key's value: its next version (an update, under the row's gate).</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The new version and its value.</returns>
    public (int Version, UserFolderTree Value) Update(int key)
    {
        int version = Volatile.Read(ref _rows[key]).Version + 1;
        var row = new Row(version, Create(key, version));
        Volatile.Write(ref _rows[key], row);
        return (row.Version, row.Value);
    }

    /// <summary>Returns the version a value read from the cache is, or null when it is not exactly a version this store
    /// had for the key (a wrong value). Instants are compared as UTC: BSON keeps milliseconds and no kind, and the
    /// readers of it give local or UTC times, which are the same instants.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="value">The value read (its instants are made UTC in place).</param>
    /// <returns>The version, or null.</returns>
    public int? Identify(int key, UserFolderTree value)
    {
        ArgumentNullException.ThrowIfNull(value);
        value.Loaded = Utc(value.Loaded);
        foreach (FolderEntry entry in value.Entries ?? [])
        {
            entry.Created = Utc(entry.Created);
            entry.Modified = Utc(entry.Modified);
        }

        long ticks = (value.Loaded - Epoch).Ticks;
        Row row = Volatile.Read(ref _rows[key]);
        if (ticks <= 0 || ticks % TimeSpan.TicksPerSecond != 0 || ticks / TimeSpan.TicksPerSecond > row.Version)
        {
            return null;
        }

        int version = (int)(ticks / TimeSpan.TicksPerSecond);
        UserFolderTree expected = version == row.Version ? row.Value : Create(key, version);
        return expected.Equals(value) ? version : null;
    }

    /// <summary>Makes version <paramref name="version"/> of key <paramref name="key"/>'s value.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="version">The version.</param>
    /// <returns>The value: the same for the same key and version.</returns>
    public UserFolderTree Create(int key, int version)
    {
        UserFolderTree tree = WorkloadFactory.LargeObject(_entries, _seed ^ ((ulong)(uint)key << 32) ^ (uint)version);
        tree.Loaded = Epoch.AddSeconds(version);
        return tree;
    }

    private static DateTime Utc(DateTime time) => time.Kind switch
    {
        DateTimeKind.Local => time.ToUniversalTime(),
        DateTimeKind.Unspecified => DateTime.SpecifyKind(time, DateTimeKind.Utc),
        _ => time,
    };

    /// <summary>A key's current version and value.</summary>
    private sealed record Row(int Version, UserFolderTree Value);
}
