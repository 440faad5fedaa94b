namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The in-process "database" of the hybrid scenario: a version per row (key), bumped by each update; for each row
/// the newest version whose removal from the cache had completed (the floor below which a read is stale); and the tag of
/// each tagged row, whose removal by tag is an update of every row of the tag.</summary>
internal sealed class SourceOfTruth
{
    private readonly int[] _versions;
    private readonly int[] _settled;
    private readonly int _taggedFrom;
    private readonly int _tags;

    /// <summary>Creates the rows, all at version 0, none tagged.</summary>
    /// <param name="keys">The number of rows.</param>
    public SourceOfTruth(int keys)
        : this(keys, keys, 0)
    {
    }

    /// <summary>Creates the rows, all at version 0; rows from <paramref name="taggedFrom"/> on carry a tag each, row r
    /// tag (r - <paramref name="taggedFrom"/>) mod <paramref name="tags"/>.</summary>
    /// <param name="keys">The number of rows.</param>
    /// <param name="taggedFrom">The first tagged row.</param>
    /// <param name="tags">The number of tags (0: none).</param>
    public SourceOfTruth(int keys, int taggedFrom, int tags)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(keys);
        ArgumentOutOfRangeException.ThrowIfNegative(tags);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(taggedFrom, keys);
        _versions = new int[keys];
        _settled = new int[keys];
        _taggedFrom = taggedFrom;
        _tags = tags;
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

    /// <summary>Gets the tag of a row, or -1 when it has none.</summary>
    /// <param name="key">The row.</param>
    /// <returns>The tag, from 0 to the number of tags less one.</returns>
    public int TagOf(int key) => _tags == 0 || key < _taggedFrom ? -1 : (key - _taggedFrom) % _tags;

    /// <summary>Updates every row of a tag (each its next version), before the cache's removal by that tag.</summary>
    /// <param name="tag">The tag.</param>
    /// <returns>Each row of the tag with the version this update made; give them to <see cref="TagRemoved"/> once the
    /// removal returned.</returns>
    public IReadOnlyList<(int Key, int Version)> UpdateTag(int tag)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(tag);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(tag, _tags);
        var updated = new List<(int Key, int Version)>();
        for (int key = _taggedFrom + tag; key < _versions.Length; key += _tags)
        {
            updated.Add((key, Update(key)));
        }

        return updated;
    }

    /// <summary>Records that the removal by tag made after <see cref="UpdateTag"/> returned: for each of its rows, older
    /// versions than the one that update made are stale (a newer removal of the row keeps its own floor).</summary>
    /// <param name="updated">What <see cref="UpdateTag"/> returned.</param>
    public void TagRemoved(IReadOnlyList<(int Key, int Version)> updated)
    {
        ArgumentNullException.ThrowIfNull(updated);
        foreach ((int key, int version) in updated)
        {
            Removed(key, version);
        }
    }
}
