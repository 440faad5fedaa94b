namespace CacheSerializer.LoadTest.Deploy;

/// <summary>What the web servers' reads did in one phase of a deploy (a read belongs to the phase it started in).</summary>
internal sealed record DeployPhaseResult
{
    /// <summary>Gets the phase: before, during or after.</summary>
    public required string Phase { get; init; }

    /// <summary>Gets the reads that got an answer: hits plus misses (errors are apart).</summary>
    public long Reads { get; init; }

    /// <summary>Gets the reads that found a value (every one checked).</summary>
    public long Hits { get; init; }

    /// <summary>Gets the reads that found nothing readable: an unreadable item (the client reads one as a miss, its
    /// default) or a key an update had deleted.</summary>
    public long Misses { get; init; }

    /// <summary>Gets the misses of a key memcached did not hold, as an update's delete left it (not a lost write).</summary>
    public long AbsentMisses { get; init; }

    /// <summary>Gets the misses an update caused: a delete or an overwrite of the key had completed since the reader's
    /// build last read or filled it (without it, the read would have hit); the others are the deploy's.</summary>
    public long UpdateCausedMisses { get; init; }

    /// <summary>Gets the misses the deploy itself caused: <see cref="Misses"/> less <see cref="UpdateCausedMisses"/>.</summary>
    public long DeployMisses => Misses - UpdateCausedMisses;

    /// <summary>Gets the hits of a version older than one whose delete or overwrite had completed before the read began.</summary>
    public long StaleValues { get; init; }

    /// <summary>Gets the updates: a new version in the source of truth, then a delete or an overwrite of the key.</summary>
    public long Updates { get; init; }

    /// <summary>Gets the misses that were an item the reader's build could not read, by reason (the client metric's
    /// tags: other_contract, unknown_type, ...), counted by each web server's transcoder.</summary>
    public IReadOnlyDictionary<string, long> Unreadable { get; init; } = new Dictionary<string, long>();

    /// <summary>Gets the hits whose value was the other build's value for the key, read faithfully (a subtype's key read by build 1 after build 2 wrote it).</summary>
    public long OtherBuildValues { get; init; }

    /// <summary>Gets the hits whose value was neither build's value for the key, and the unreadable items the change
    /// kind does not explain (any before the first switch; any but its reason after it).</summary>
    public long Corruptions { get; init; }

    /// <summary>Gets the misses on a key whose last write memcached had stored, with no write of it started since the
    /// read began (<see cref="Checking.KeyLedger"/>), while memcached evicted nothing; null when it evicted.</summary>
    public long? LostWrites { get; init; }

    /// <summary>Gets the exceptions that reached the web server's code (the read or the factory's set) and the sets memcached did not store.</summary>
    public long Errors { get; init; }

    /// <summary>Gets the factory calls: one per miss, each followed by a set (an update's overwrite is not one).</summary>
    public long FactoryCalls { get; init; }

    /// <summary>Gets the items memcached held when the phase ended (stats <c>curr_items</c>): the keys, and during a
    /// deploy that changed a contract the build copies beside them.</summary>
    public long MemcachedItems { get; init; }

    /// <summary>Gets the bytes memcached held for them when the phase ended (stats <c>bytes</c>).</summary>
    public long MemcachedBytes { get; init; }

    /// <summary>Gets hits / reads.</summary>
    public double HitRate => Reads == 0 ? 0 : (double)Hits / Reads;
}
