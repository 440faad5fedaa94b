using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>What one contender of the hybrid scenario measured.</summary>
internal sealed record HybridContenderResult : IScenarioPartResult
{
    /// <summary>Gets the contender's name (bounded, strict, microsoft-memcached, ...).</summary>
    public required string Contender { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Contender;

    /// <summary>Gets what the contender is, in words.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the reads that went through both levels (L1 allowed), as an application's do.</summary>
    public long Reads { get; init; }

    /// <summary>Gets the reads among <see cref="Reads"/> that returned a version older than one whose removal had
    /// completed before the read began.</summary>
    public long StaleReads { get; init; }

    /// <summary>Gets the reads that skipped L1 (<c>DisableLocalCacheRead | DisableLocalCacheWrite</c>): what L2 serves.</summary>
    public long L2Reads { get; init; }

    /// <summary>Gets the reads among <see cref="L2Reads"/> that were stale: a stale value at L2.</summary>
    public long StaleL2Reads { get; init; }

    /// <summary>Gets the share of <see cref="Reads"/> that were stale.</summary>
    public double StaleShare => Reads == 0 ? 0 : (double)StaleReads / Reads;

    /// <summary>Gets the share of <see cref="L2Reads"/> that were stale.</summary>
    public double StaleL2Share => L2Reads == 0 ? 0 : (double)StaleL2Reads / L2Reads;

    /// <summary>Gets the reads of both kinds that ran no factory of their own (a value from L1 or L2, or another
    /// caller's factory in the same process).</summary>
    public long Hits { get; init; }

    /// <summary>Gets the share of all reads that were hits.</summary>
    public double HitRate => Reads + L2Reads == 0 ? 0 : (double)Hits / (Reads + L2Reads);

    /// <summary>Gets the factory calls (queries of the source of truth) of the whole farm.</summary>
    public long FactoryCalls { get; init; }

    /// <summary>Gets the (key, version) pairs some factory call read.</summary>
    public long VersionsCreated { get; init; }

    /// <summary>Gets the factory calls per (key, version): 1.00 is one query per change across the farm.</summary>
    public double CallsPerVersion => VersionsCreated == 0 ? 0 : (double)FactoryCalls / VersionsCreated;

    /// <summary>Gets the most factory calls of one (key, version).</summary>
    public int MaxCallsPerVersion { get; init; }

    /// <summary>Gets the updates made (each a row's new version and a <c>RemoveAsync</c> on a random web server).</summary>
    public long Updates { get; init; }

    /// <summary>Gets the reads of both kinds per second, across the farm.</summary>
    public double ReadsPerSecond { get; init; }

    /// <summary>Gets the CPU time of the load test's process (the web servers and the harness, not memcached or
    /// redis-server) per read, in microseconds.</summary>
    public double CpuMicrosecondsPerRead { get; init; }

    /// <summary>Gets the reads and removals that threw.</summary>
    public long Errors { get; init; }

    /// <summary>Gets the reads that returned no value, a value of another key, or a version the source of truth never had.</summary>
    public long Corruptions { get; init; }

    /// <summary>Gets null: this scenario counts factory calls per version, not lost writes.</summary>
    public long? LostWrites => null;

    /// <summary>Gets a few error and corruption messages.</summary>
    public required IReadOnlyList<string> Samples { get; init; }
}
