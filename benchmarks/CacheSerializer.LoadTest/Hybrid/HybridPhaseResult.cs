namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>What one phase of one contender measured.</summary>
internal sealed record HybridPhaseResult
{
    /// <summary>Gets the phase's name (steady, tags, outage, deploy; a step of the faults phase is "faults: " and the
    /// step's name).</summary>
    public required string Phase { get; init; }

    /// <summary>Gets how long the phase ran, in seconds.</summary>
    public double Seconds { get; init; }

    /// <summary>Gets the reads that went through both levels (L1 allowed), as an application's do.</summary>
    public long Reads { get; init; }

    /// <summary>Gets the reads among <see cref="Reads"/> that returned a version older than one whose removal (by key or
    /// by tag) had completed before the read began.</summary>
    public long StaleReads { get; init; }

    /// <summary>Gets the reads that skipped L1 (<c>DisableLocalCacheRead | DisableLocalCacheWrite</c>): what L2 serves.</summary>
    public long L2Reads { get; init; }

    /// <summary>Gets the reads among <see cref="L2Reads"/> that were stale: a stale value at L2.</summary>
    public long StaleL2Reads { get; init; }

    /// <summary>Gets the share of <see cref="Reads"/> that were stale.</summary>
    public double StaleShare => Reads == 0 ? 0 : (double)StaleReads / Reads;

    /// <summary>Gets the share of <see cref="L2Reads"/> that were stale.</summary>
    public double StaleL2Share => L2Reads == 0 ? 0 : (double)StaleL2Reads / L2Reads;

    /// <summary>Gets the reads of both kinds that ran no factory of their own.</summary>
    public long Hits { get; init; }

    /// <summary>Gets the share of all reads that were hits.</summary>
    public double HitRate => Reads + L2Reads == 0 ? 0 : (double)Hits / (Reads + L2Reads);

    /// <summary>Gets the reads among <see cref="Reads"/> answered from L1: the instance handed out before on the same web
    /// server (see <see cref="Models.IHybridRow"/>).</summary>
    public long L1Hits { get; init; }

    /// <summary>Gets the share of <see cref="Reads"/> answered from L1.</summary>
    public double L1HitShare => Reads == 0 ? 0 : (double)L1Hits / Reads;

    /// <summary>Gets the factory calls (queries of the source of truth) of the whole farm made by reads begun in the phase.</summary>
    public long FactoryCalls { get; init; }

    /// <summary>Gets the (key, version, build) triples some factory call read: a build's copy of a version is its own.</summary>
    public long VersionsCreated { get; init; }

    /// <summary>Gets the factory calls per (key, version, build): 1.00 is one query per change and build across the farm.</summary>
    public double CallsPerVersion => VersionsCreated == 0 ? 0 : (double)FactoryCalls / VersionsCreated;

    /// <summary>Gets the most factory calls of one (key, version, build).</summary>
    public int MaxCallsPerVersion { get; init; }

    /// <summary>Gets the removals made: updates with <c>RemoveAsync</c>, or in the tags phase removals by tag.</summary>
    public long Removals { get; init; }

    /// <summary>Gets the reads of both kinds per second, across the farm.</summary>
    public double ReadsPerSecond { get; init; }

    /// <summary>Gets the CPU time of the load test's process (the web servers and the harness, not memcached or
    /// redis-server) per read, in microseconds.</summary>
    public double CpuMicrosecondsPerRead { get; init; }

    /// <summary>Gets the bytes memcached and redis-server read and wrote on the network during the phase, by their own
    /// counters (<c>bytes_read</c> + <c>bytes_written</c>; <c>total_net_input_bytes</c> + <c>total_net_output_bytes</c>).</summary>
    public long NetworkBytes { get; init; }

    /// <summary>Gets <see cref="NetworkBytes"/> per read of both kinds.</summary>
    public double NetworkBytesPerRead => Reads + L2Reads == 0 ? 0 : (double)NetworkBytes / (Reads + L2Reads);

    /// <summary>Gets the package's factory calls made because a caller waited its whole <c>LockTimeout</c> for a value
    /// another caller had won (0 for the other contenders, which do not report it): each is a key whose callers on one
    /// web server stopped that long.</summary>
    public long LockTimeouts { get; init; }

    /// <summary>Gets the longest a read took, in milliseconds: how long the longest stop of a caller lasted (a read
    /// over <see cref="HybridPhaseTally.SlowRead"/> is named in <see cref="Samples"/>).</summary>
    public double SlowestReadMilliseconds { get; init; }

    /// <summary>Gets the exceptions thrown to callers (reads) and to the updater (removals).</summary>
    public long Errors { get; init; }

    /// <summary>Gets the reads that returned a value of another key or a version the row never had.</summary>
    public long Corruptions { get; init; }

    /// <summary>Gets, in the outage phase, how long the L2 server was frozen, in seconds; null in the other phases.</summary>
    public double? OutageSeconds { get; init; }

    /// <summary>Gets, in the outage phase, the time in milliseconds from the L2 server's return to the end of the first
    /// read that skipped L1, began after it and was answered from L2; null when there was none.</summary>
    public double? L2HitsBackAfterMilliseconds { get; init; }

    /// <summary>Gets the median time a removal (<c>RemoveAsync</c>; in the tags phase <c>RemoveByTagAsync</c>; in the
    /// faults phase both) took to return, in milliseconds; null when none returned.</summary>
    public double? RemovalP50Milliseconds { get; init; }

    /// <summary>Gets the 99th percentile of the removals' times, in milliseconds.</summary>
    public double? RemovalP99Milliseconds { get; init; }

    /// <summary>Gets the share of the reads that began after the fault was lifted (the server let run again or
    /// restarted, the filler stopped) that were hits; null when nothing was lifted in the phase.</summary>
    public double? HitRateAfterRecovery { get; init; }

    /// <summary>Gets the reads counted in <see cref="HitRateAfterRecovery"/>.</summary>
    public long ReadsAfterRecovery { get; init; }

    /// <summary>Gets the stale reads of both kinds among <see cref="ReadsAfterRecovery"/>: what the fault left behind
    /// once it was lifted, apart from what was served while it lasted; null when nothing was lifted.</summary>
    public long? StaleAfterRecovery { get; init; }

    /// <summary>Gets, in a step of the faults phase that faults one server, that server and what it holds
    /// (<c>127.0.0.1:port (hc:seq)</c>); null otherwise.</summary>
    public string? FaultedServer { get; init; }

    /// <summary>Gets the stale reads of both kinds (L1 allowed or not) of keys placed on <see cref="FaultedServer"/>.</summary>
    public long? StaleOnFaultedServer { get; init; }

    /// <summary>Gets the removals lost with a web server restarted while they ran (not counted as errors).</summary>
    public long AbandonedRemovals { get; init; }

    /// <summary>Gets the times the package's web servers said their invalidation log could not be read, so that they serve
    /// L1 through an outage (the HybridCache's event 44); 0 for the other contenders, which do not say.</summary>
    public long OutagesEntered { get; init; }

    /// <summary>Gets the changes the package's web servers said memcached did not take, kept to be made again (event 43).</summary>
    public long ChangesFailed { get; init; }

    /// <summary>Gets, in the faults phase's memory pressure step, the items the servers evicted (memcached's
    /// <c>evictions</c>, redis-server's <c>evicted_keys</c>); null otherwise.</summary>
    public long? Evictions { get; init; }

    /// <summary>Gets, in a step of the faults phase, what was done to the servers and when (seconds into the step).</summary>
    public IReadOnlyList<string>? Events { get; init; }

    /// <summary>Gets a few error and corruption messages of the phase.</summary>
    public required IReadOnlyList<string> Samples { get; init; }
}
