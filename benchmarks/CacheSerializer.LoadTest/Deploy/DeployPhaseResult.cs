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

    /// <summary>Gets the reads that found nothing readable: every key is stored before the deploy and never deleted, so each is an unreadable item.</summary>
    public long Misses { get; init; }

    /// <summary>Gets the misses that were an unreadable item the client threw for (a <c>TranscoderException</c>) and the harness counted as a miss.</summary>
    public long UnreadableCaught { get; init; }

    /// <summary>Gets the hits whose value was the other build's value for the key, read faithfully (a subtype's key read by build 1 after build 2 wrote it).</summary>
    public long OtherBuildValues { get; init; }

    /// <summary>Gets the hits whose value was neither build's value for the key.</summary>
    public long WrongValues { get; init; }

    /// <summary>Gets the exceptions that reached the web server's code (the read or the factory's set).</summary>
    public long Errors { get; init; }

    /// <summary>Gets the factory calls: one per miss, each followed by a set.</summary>
    public long FactoryCalls { get; init; }

    /// <summary>Gets hits / reads.</summary>
    public double HitRate => Reads == 0 ? 0 : (double)Hits / Reads;
}
