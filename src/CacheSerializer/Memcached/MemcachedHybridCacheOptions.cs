using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached;

/// <summary>Options of the package's own HybridCache (<c>AddMemcachedHybridCache</c>, docs/hybrid.md): the settings of
/// Microsoft's <c>HybridCacheOptions</c> it honours, under the same names and defaults, and its own.</summary>
/// <remarks>Microsoft's <c>HybridCacheOptions</c> lives in Microsoft.Extensions.Caching.Hybrid, which this package does not
/// reference; its settings are repeated here.</remarks>
public sealed class MemcachedHybridCacheOptions
{
    /// <summary>Gets or sets how the in-process copies stay in step with removals made on other servers.</summary>
    /// <value><see cref="HybridCacheCoherence.Bounded"/>.</value>
    public HybridCacheCoherence L1Coherence { get; set; } = HybridCacheCoherence.Bounded;

    /// <summary>Gets or sets how long after a removal returns an in-process copy may still have been served elsewhere
    /// (none may, once it returns): the poller reads the invalidation log every half bound, and a removal waits this long.</summary>
    /// <value>50 milliseconds: far below a write request's budget, at 40 small requests a second per server. More than
    /// zero and at most one minute.</value>
    public TimeSpan InvalidationBound { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>Gets or sets a value indicating whether the in-process copies are served while the invalidation log
    /// cannot be read (memcached down or not answering), in either coherence mode: each server then answers from its last
    /// values until their local expiration, and runs the factory (once per key) only for what it does not hold. A removal
    /// made meanwhile cannot reach other servers (it fails to write the log, logged as event 43), nor can one made in the
    /// last bound before the outage that a server had not read yet; each server drops its whole L1 at its first complete
    /// poll after the outage. False keeps the coherence guarantee through an outage: every read runs the factory (once per
    /// process and key) until memcached answers.</summary>
    /// <value>True: during an outage a server serves the last values it holds rather than ask the database for them.</value>
    public bool ServeL1DuringOutage { get; set; } = true;

    /// <summary>Gets or sets the defaults of every call's entry options (<c>HybridCacheOptions.DefaultEntryOptions</c>).</summary>
    /// <value>Null: <c>Expiration</c> and <c>LocalCacheExpiration</c> of 5 minutes, no flags.</value>
    public HybridCacheEntryOptions? DefaultEntryOptions { get; set; }

    /// <summary>Gets or sets the largest value (its serialized bytes) that is cached; a larger one is returned and not
    /// cached (<c>HybridCacheOptions.MaximumPayloadBytes</c>).</summary>
    /// <value>1 MiB. More than zero.</value>
    public long MaximumPayloadBytes { get; set; } = 1 << 20;

    /// <summary>Gets or sets the longest key that is cached; a call with a longer key runs the factory and caches nothing
    /// (<c>HybridCacheOptions.MaximumKeyLength</c>).</summary>
    /// <value>1024 characters. More than zero.</value>
    public int MaximumKeyLength { get; set; } = 1024;

    /// <summary>Gets or sets the most entries the in-process level holds; when full it drops a tenth of them (expired
    /// ones first).</summary>
    /// <value>10,000. More than zero.</value>
    public int MaximumLocalEntries { get; set; } = 10_000;

    /// <summary>Gets or sets the lease defaults the entries share with <see cref="IMemcachedClient.GetOrCreateAsync{T}"/>:
    /// <see cref="GetOrCreateOptions.LockTimeout"/>, <see cref="GetOrCreateOptions.EarlyRefresh"/> and
    /// <see cref="GetOrCreateOptions.StaleWhileRevalidate"/> (the expiration comes from the entry options).</summary>
    /// <value>Null: the client's <see cref="MemcachedClientOptions.GetOrCreate"/>.</value>
    public GetOrCreateOptions? GetOrCreate { get; set; }

    /// <summary>Finds every value out of range, as (property, problem and fix).</summary>
    internal List<(string Property, string Problem)> Problems()
    {
        var problems = new List<(string, string)>();
        if (InvalidationBound <= TimeSpan.Zero || InvalidationBound > TimeSpan.FromMinutes(1))
        {
            problems.Add((nameof(InvalidationBound), $"is {InvalidationBound}; it must be more than zero and at most one minute"));
        }

        if (MaximumPayloadBytes <= 0)
        {
            problems.Add((nameof(MaximumPayloadBytes), $"is {MaximumPayloadBytes}; it must be more than zero"));
        }

        if (MaximumKeyLength <= 0)
        {
            problems.Add((nameof(MaximumKeyLength), $"is {MaximumKeyLength}; it must be more than zero"));
        }

        if (MaximumLocalEntries <= 0)
        {
            problems.Add((nameof(MaximumLocalEntries), $"is {MaximumLocalEntries}; it must be more than zero"));
        }

        if (GetOrCreate is not null)
        {
            problems.AddRange(GetOrCreate.Problems().Select(static p => ($"{nameof(GetOrCreate)}.{p.Property}", p.Problem)));
        }

        return problems;
    }
}
