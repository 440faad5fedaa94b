using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Workloads;

/// <summary>A workload bound to one contender: the input and the stored item ready, so each call does only the transcoder's work.</summary>
/// <remarks>
/// Results are kept in a typed field, never boxed, so a benchmark's allocations are the transcoder's own. Not thread-safe.
/// </remarks>
public abstract class WorkloadRun
{
    private protected WorkloadRun(Workload workload, Contender contender, CacheItem stored)
    {
        Workload = workload;
        Contender = contender;
        Stored = stored;
    }

    /// <summary>Gets the workload.</summary>
    public Workload Workload { get; }

    /// <summary>Gets the contender.</summary>
    public Contender Contender { get; }

    /// <summary>Gets the item the contender stored, in an array of its own as if read from the network.</summary>
    public CacheItem Stored { get; }

    /// <summary>Serializes the input once.</summary>
    /// <returns>The payload length.</returns>
    public abstract int Serialize();

    /// <summary>Deserializes <see cref="Stored"/> once through the typed path.</summary>
    /// <returns>1, so the call cannot be elided.</returns>
    public abstract int Deserialize();

    /// <summary>Serializes the input, then deserializes what it wrote.</summary>
    /// <returns>The payload length.</returns>
    public abstract int RoundTrip();
}
