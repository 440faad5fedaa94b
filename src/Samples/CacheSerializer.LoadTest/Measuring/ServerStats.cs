using System.Globalization;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>memcached's own figures, summed over every server of the run (from the <c>stats</c> command).</summary>
/// <remarks>
/// <see cref="Bytes"/> and <see cref="CurrentItems"/> are levels (memcached 1.6.18 drops both to 0 at <c>flush_all</c>);
/// the rest are counters since the server started, so a pass reports the difference of two snapshots.
/// </remarks>
internal sealed record ServerStats
{
    /// <summary>Gets the bytes memcached uses to store the items (<c>bytes</c>: keys, values and item headers).</summary>
    public long Bytes { get; init; }

    /// <summary>Gets the number of items stored (<c>curr_items</c>).</summary>
    public long CurrentItems { get; init; }

    /// <summary>Gets the items evicted to make room (<c>evictions</c>).</summary>
    public long Evictions { get; init; }

    /// <summary>Gets the gets that found their key (<c>get_hits</c>).</summary>
    public long GetHits { get; init; }

    /// <summary>Gets the gets that did not (<c>get_misses</c>).</summary>
    public long GetMisses { get; init; }

    /// <summary>Gets the bytes memcached read from the network (<c>bytes_read</c>).</summary>
    public long BytesRead { get; init; }

    /// <summary>Gets the bytes memcached wrote to the network (<c>bytes_written</c>).</summary>
    public long BytesWritten { get; init; }

    /// <summary>Gets memcached's CPU time, user plus system, in seconds (<c>rusage_user</c> + <c>rusage_system</c>).</summary>
    public double CpuSeconds { get; init; }

    /// <summary>Reads the stats of every server the client knows and sums them.</summary>
    /// <param name="client">The client.</param>
    /// <param name="cancellationToken">Cancels the call.</param>
    /// <returns>The sums.</returns>
    public static async Task<ServerStats> ReadAsync(MemcachedClient client, CancellationToken cancellationToken)
    {
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> all = await client.GetStatsAsync(cancellationToken).ConfigureAwait(false);
        var sum = new ServerStats();
        foreach (IReadOnlyDictionary<string, string> stats in all.Values)
        {
            sum = new ServerStats
            {
                Bytes = sum.Bytes + Integer(stats, "bytes"),
                CurrentItems = sum.CurrentItems + Integer(stats, "curr_items"),
                Evictions = sum.Evictions + Integer(stats, "evictions"),
                GetHits = sum.GetHits + Integer(stats, "get_hits"),
                GetMisses = sum.GetMisses + Integer(stats, "get_misses"),
                BytesRead = sum.BytesRead + Integer(stats, "bytes_read"),
                BytesWritten = sum.BytesWritten + Integer(stats, "bytes_written"),
                CpuSeconds = sum.CpuSeconds + Real(stats, "rusage_user") + Real(stats, "rusage_system"),
            };
        }

        return sum;
    }

    /// <summary>Returns the figures of a pass: levels as they are now, counters as the change since <paramref name="before"/>.</summary>
    /// <param name="before">The snapshot taken when the pass started.</param>
    /// <returns>The pass's figures.</returns>
    public ServerStats Since(ServerStats before) => this with
    {
        Evictions = Evictions - before.Evictions,
        GetHits = GetHits - before.GetHits,
        GetMisses = GetMisses - before.GetMisses,
        BytesRead = BytesRead - before.BytesRead,
        BytesWritten = BytesWritten - before.BytesWritten,
        CpuSeconds = CpuSeconds - before.CpuSeconds,
    };

    private static long Integer(IReadOnlyDictionary<string, string> stats, string name) =>
        stats.TryGetValue(name, out string? text) && long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value) ? value : 0;

    private static double Real(IReadOnlyDictionary<string, string> stats, string name) =>
        stats.TryGetValue(name, out string? text) && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) ? value : 0;
}
