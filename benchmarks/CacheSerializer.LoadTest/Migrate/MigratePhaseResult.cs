namespace CacheSerializer.LoadTest.Migrate;

/// <summary>What the web servers did in one phase of a migration (an operation belongs to the phase it started in).</summary>
internal sealed record MigratePhaseResult
{
    /// <summary>Gets the phase: warm-up, before, switch, after, flip or second-step.</summary>
    public required string Phase { get; init; }

    /// <summary>Gets the reads that got an answer: hits plus misses.</summary>
    public long Reads { get; init; }

    /// <summary>Gets the reads that found a value (every one checked against the source of truth).</summary>
    public long Hits { get; init; }

    /// <summary>Gets the reads that found nothing (each followed by a fill: the source of truth read, then a set).</summary>
    public long Misses { get; init; }

    /// <summary>Gets the hits of a version older than one whose delete or overwrite had completed before the read began.</summary>
    public long StaleValues { get; init; }

    /// <summary>Gets the hits of old web servers whose value is not one: an item EnyimMemcachedCore's read returns as a
    /// hit whose value is null (a get-or-create placeholder, 0 bytes, flags 0). The target is 0.</summary>
    public long NonValues { get; init; }

    /// <summary>Gets the reads of new web servers through <c>GetOrCreateAsync</c> (every second one; counted in
    /// <see cref="Reads"/> too).</summary>
    public long GetOrCreateReads { get; init; }

    /// <summary>Gets the hits whose content is not what the source of truth says for the version the value names (the
    /// other scenarios' corruptions).</summary>
    public long WrongValues { get; init; }

    /// <summary>Gets the misses on a key whose last write memcached had stored, with no write of it started since the
    /// read began (the other scenarios' lost writes); null when memcached evicted.</summary>
    public long? LostHits { get; init; }

    /// <summary>Gets the exceptions on old web servers: each one EnyimMemcachedCore's client (emulated) would have caught
    /// and logged, or that reached the code. The target is 0.</summary>
    public long OldServerExceptions { get; init; }

    /// <summary>Gets the exceptions on new web servers: caught by this package's client (an unreadable item read as a
    /// miss, a server failure), or reaching the code. The target is 0.</summary>
    public long NewServerExceptions { get; init; }

    /// <summary>Gets the updates: a new version in the source of truth, then the key deleted or overwritten.</summary>
    public long Updates { get; init; }

    /// <summary>Gets the items the web servers' transcoders wrote (fills and overwrites).</summary>
    public long ItemsWritten { get; init; }

    /// <summary>Gets the items written that were objects as BSON (flags 0x0101, DefaultTranscoder's).</summary>
    public long BsonItemsWritten { get; init; }

    /// <summary>Gets the payload bytes of the items written (memcached's item header and the key not counted).</summary>
    public long BytesWritten { get; init; }

    /// <summary>Gets memcached's <c>bytes</c> when the phase ended, over every server (items, keys and headers).</summary>
    public long MemcachedBytes { get; init; }

    /// <summary>Gets memcached's <c>curr_items</c> when the phase ended, over every server.</summary>
    public long MemcachedItems { get; init; }

    /// <summary>Gets hits / reads.</summary>
    public double HitRate => Reads == 0 ? 0 : (double)Hits / Reads;

    /// <summary>Gets the payload bytes per item written.</summary>
    public double BytesPerItemWritten => ItemsWritten == 0 ? 0 : (double)BytesWritten / ItemsWritten;

    /// <summary>Gets memcached's bytes per item held when the phase ended.</summary>
    public double MemcachedBytesPerItem => MemcachedItems == 0 ? 0 : (double)MemcachedBytes / MemcachedItems;
}
