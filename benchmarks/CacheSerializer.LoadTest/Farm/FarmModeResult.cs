using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>What one mode of the farm scenario measured.</summary>
internal sealed record FarmModeResult : IScenarioPartResult
{
    /// <summary>Gets the mode's name (plain, hybrid, farm, farm-stale).</summary>
    public required string Mode { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Mode;

    /// <summary>Gets what the mode is, in words.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the number of expiries: every epoch of every hot key that began, the first fill included.</summary>
    public int Expiries { get; init; }

    /// <summary>Gets the factory calls (database queries) of the whole farm.</summary>
    public long FactoryCalls { get; init; }

    /// <summary>Gets the factory calls per expiry: the stampede ratio (1.0 is one query per expiry in the farm).</summary>
    public double CallsPerExpiry => Expiries == 0 ? 0 : (double)FactoryCalls / Expiries;

    /// <summary>Gets the fewest factory calls of one expiry.</summary>
    public int MinCallsPerExpiry { get; init; }

    /// <summary>Gets the most factory calls of one expiry.</summary>
    public int MaxCallsPerExpiry { get; init; }

    /// <summary>Gets the factory calls of every expiry, key by key.</summary>
    public required IReadOnlyList<int> CallsByExpiry { get; init; }

    /// <summary>Gets the reads that returned a value.</summary>
    public long Reads { get; init; }

    /// <summary>Gets the reads per second of the whole farm.</summary>
    public double ReadsPerSecond { get; init; }

    /// <summary>Gets the reads that returned the value of an earlier epoch (expected with a stale window).</summary>
    public long StaleReads { get; init; }

    /// <summary>Gets the median read latency, in milliseconds.</summary>
    public double P50Milliseconds { get; init; }

    /// <summary>Gets the 99th percentile read latency, in milliseconds.</summary>
    public double P99Milliseconds { get; init; }

    /// <summary>Gets the slowest read, in milliseconds: about one factory call for a caller that waited for it.</summary>
    public double MaxMilliseconds { get; init; }

    /// <summary>Gets the reads that took at least one factory call's time: callers that waited for a factory (theirs or
    /// another's), where a stale value would have answered at once.</summary>
    public long SlowReads { get; init; }

    /// <summary>Gets the reads that threw.</summary>
    public long Errors { get; init; }

    /// <summary>Gets the reads that returned a value of another key or of a future epoch, and the items a web server
    /// could not read (read as misses by the client; nothing in the farm changes a contract).</summary>
    public long Corruptions { get; init; }

    /// <summary>Gets the items the web servers could not read, by reason (the client metric's tags).</summary>
    public IReadOnlyDictionary<string, long> Unreadable { get; init; } = new Dictionary<string, long>();

    /// <summary>Gets the factory calls that followed a miss on a value memcached was seen holding in the same epoch
    /// (after its expiry was done, before the read started), while it evicted nothing; null when it evicted.</summary>
    public long? LostWrites { get; init; }

    /// <summary>Gets a few error, corruption and lost-write messages.</summary>
    public required IReadOnlyList<string> Samples { get; init; }
}
