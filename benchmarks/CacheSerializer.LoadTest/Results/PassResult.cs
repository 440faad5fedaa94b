using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Results;

/// <summary>Every figure of one contender's pass (the JSON file holds these as they are).</summary>
internal sealed record PassResult : IScenarioPartResult
{
    /// <summary>Gets the contender's name.</summary>
    public required string Contender { get; init; }

    /// <inheritdoc/>
    string IScenarioPartResult.Name => Contender;

    /// <summary>Gets a value indicating whether the pass ran to its end with every operation answered and nothing corrupt.</summary>
    public bool Completed { get; init; }

    /// <summary>Gets why the pass did not complete, or null.</summary>
    public string? Failure { get; init; }

    /// <summary>Gets the measured time of the pass, in seconds.</summary>
    public double Seconds { get; init; }

    /// <summary>Gets the operations done (gets and sets).</summary>
    public long Operations { get; init; }

    /// <summary>Gets the gets.</summary>
    public long Gets { get; init; }

    /// <summary>Gets the sets.</summary>
    public long Sets { get; init; }

    /// <summary>Gets the gets that found a value.</summary>
    public long Hits { get; init; }

    /// <summary>Gets the gets that found nothing (each followed by a set).</summary>
    public long Misses { get; init; }

    /// <summary>Gets the failed operations (exceptions, and stores the server refused).</summary>
    public long Errors { get; init; }

    /// <summary>Gets the sets the client returned as <c>ServerFailure</c> (their server was down or failed); expected
    /// only in the fault mode.</summary>
    public long StoreFailures { get; init; }

    /// <summary>Gets the reads that returned a wrong value, or an item the contender could not read back (the client
    /// reads it as a miss; nothing in a pass changes a contract, so every one is a corruption).</summary>
    public long Corruptions { get; init; }

    /// <summary>Gets the items the contender could not read back, by reason (the client metric's tags: <c>malformed</c>,
    /// <c>other_contract</c>, ...); each is also a miss and a corruption.</summary>
    public IReadOnlyDictionary<string, long> Unreadable { get; init; } = new Dictionary<string, long>();

    /// <summary>Gets the misses on keys whose last write was stored, while memcached evicted nothing (nothing in a pass
    /// expires or deletes a key); null when that cannot be told: memcached evicted, or a server was down or restarted.</summary>
    public long? LostWrites { get; init; }

    /// <summary>Gets the operations per second.</summary>
    public double OperationsPerSecond { get; init; }

    /// <summary>Gets the operations per minute (the report's "requests per minute").</summary>
    public double RequestsPerMinute { get; init; }

    /// <summary>Gets the latency of every operation, in microseconds.</summary>
    public required Distribution LatencyMicroseconds { get; init; }

    /// <summary>Gets the latency of the gets, in microseconds.</summary>
    public required Distribution GetLatencyMicroseconds { get; init; }

    /// <summary>Gets the latency of the sets, in microseconds.</summary>
    public required Distribution SetLatencyMicroseconds { get; init; }

    /// <summary>Gets the client process's CPU time during the pass, in seconds (user + system, all threads).</summary>
    public double ClientCpuSeconds { get; init; }

    /// <summary>Gets the client's CPU time per operation, in microseconds.</summary>
    public double ClientCpuMicrosecondsPerOperation { get; init; }

    /// <summary>
    /// Gets the part of <see cref="ClientCpuMicrosecondsPerOperation"/> spent inside the contender's Serialize and
    /// Deserialize calls (their threads' CPU time), in microseconds per operation; null where the thread CPU clock cannot
    /// be read (not Linux). The rest is the client, the value checks and the harness, the same work for every contender.
    /// </summary>
    public double? TranscoderCpuMicrosecondsPerOperation { get; init; }

    /// <summary>Gets the bytes the client sent (its own meter).</summary>
    public long ClientBytesSent { get; init; }

    /// <summary>Gets the bytes the client received (its own meter).</summary>
    public long ClientBytesReceived { get; init; }

    /// <summary>Gets the client's bytes sent plus received per operation.</summary>
    public double ClientBytesPerOperation { get; init; }

    /// <summary>Gets memcached's figures for the pass (levels at the end, counters as differences).</summary>
    public required ServerStats Server { get; init; }

    /// <summary>Gets memcached's bytes per stored item at the end of the pass (<c>bytes / curr_items</c>).</summary>
    public double ServerBytesPerItem { get; init; }

    /// <summary>Gets the payload sizes of the items written (in the warm-up and in the measured phase), in bytes.</summary>
    public required Distribution ItemSizeBytes { get; init; }

    /// <summary>Gets what the warm-up phase did before the measured phase (every key stored once).</summary>
    public WarmUpResult? WarmUp { get; init; }

    /// <summary>Gets what the pass did second by second (operations, hits, misses, store failures, errors).</summary>
    public IReadOnlyList<TimelineSecond> Timeline { get; init; } = [];

    /// <summary>Gets the fault mode's summary (a server killed and restarted), or null without a fault.</summary>
    public FaultSummary? Fault { get; init; }

    /// <summary>Gets the first few error messages.</summary>
    public IReadOnlyList<string> ErrorSamples { get; init; } = [];

    /// <summary>Gets the first few corruption descriptions.</summary>
    public IReadOnlyList<string> CorruptionSamples { get; init; } = [];

    /// <summary>Gets the first few lost writes.</summary>
    public IReadOnlyList<string> LostWriteSamples { get; init; } = [];

    /// <inheritdoc/>
    IReadOnlyList<string> IScenarioPartResult.Samples => [.. ErrorSamples, .. CorruptionSamples, .. LostWriteSamples];
}
