using System.Globalization;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>memcached's own figures, summed over every server of the run (from the <c>stats</c> command).</summary>
/// <remarks>
/// <see cref="Bytes"/> and <see cref="CurrentItems"/> are levels (memcached 1.6.18 drops both to 0 at <c>flush_all</c>);
/// the rest are counters since the server started, so a pass reports the difference of two snapshots, server by server.
/// A server that does not answer (down: the client leaves it out of its stats) is listed in <see cref="Unavailable"/>
/// and counted in no sum; a server that restarted during the pass (its pid changed) counts from its restart.
/// </remarks>
internal sealed record ServerStats
{
    /// <summary>Gets the servers whose stats could not be read (down when the snapshot was taken).</summary>
    public IReadOnlyList<string> Unavailable { get; init; } = [];

    /// <summary>Gets the servers that restarted between the two snapshots (their counters count from the restart).</summary>
    public IReadOnlyList<string> Restarted { get; init; } = [];

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

    /// <summary>Gets each answering server's raw stats, by <c>host:port</c> (kept for the difference of two snapshots).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> PerServer { get; init; } = new Dictionary<string, IReadOnlyDictionary<string, string>>();

    /// <summary>Reads the stats of every server the client knows and sums them; a server that does not answer is listed as unavailable.</summary>
    /// <param name="client">The client.</param>
    /// <param name="cancellationToken">Cancels the call.</param>
    /// <returns>The sums.</returns>
    public static async Task<ServerStats> ReadAsync(MemcachedClient client, CancellationToken cancellationToken)
    {
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> all = await client.GetStatsAsync(cancellationToken).ConfigureAwait(false);
        return Sum(all, [.. client.Servers.Where(s => !all.ContainsKey(s))], [], _ => null);
    }

    /// <summary>Waits until the servers hold no item, for at most <paramref name="bound"/>, after a <c>flush_all</c>.</summary>
    /// <remarks>memcached 1.6.18 answers <c>flush_all</c> at once and reclaims the flushed items in the background
    /// (about 0.1 s here for thousands of items, longer on a loaded machine); until then <c>curr_items</c> and
    /// <c>bytes</c> still count them, and would be charged to the pass that follows.</remarks>
    /// <returns>The snapshot that showed no item, or the last one read when the bound passed first.</returns>
    public static async Task<ServerStats> UntilEmptyAsync(MemcachedClient client, TimeSpan bound, CancellationToken cancellationToken)
    {
        long deadline = Environment.TickCount64 + (long)bound.TotalMilliseconds;
        while (true)
        {
            ServerStats now = await ReadAsync(client, cancellationToken).ConfigureAwait(false);
            if (now.CurrentItems == 0 || Environment.TickCount64 >= deadline)
            {
                return now;
            }

            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Returns the figures of a pass: levels as they are now, counters as the change since <paramref name="before"/>, server by server.</summary>
    /// <param name="before">The snapshot taken when the pass started.</param>
    /// <returns>The pass's figures.</returns>
    public ServerStats Since(ServerStats before)
    {
        string[] restarted = [.. PerServer.Keys.Where(s => before.PerServer.TryGetValue(s, out IReadOnlyDictionary<string, string>? then) && then.GetValueOrDefault("pid") != PerServer[s].GetValueOrDefault("pid"))];
        return Sum(PerServer, Unavailable, restarted, server =>
            restarted.Contains(server) || !before.PerServer.TryGetValue(server, out IReadOnlyDictionary<string, string>? then) ? null : then);
    }

    private static ServerStats Sum(
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> now, IReadOnlyList<string> unavailable, IReadOnlyList<string> restarted,
        Func<string, IReadOnlyDictionary<string, string>?> baseline)
    {
        var sum = new ServerStats { PerServer = now, Unavailable = unavailable, Restarted = restarted };
        foreach ((string server, IReadOnlyDictionary<string, string> stats) in now)
        {
            IReadOnlyDictionary<string, string>? then = baseline(server);
            long Counter(string name) => Integer(stats, name) - (then is null ? 0 : Integer(then, name));
            sum = sum with
            {
                Bytes = sum.Bytes + Integer(stats, "bytes"),
                CurrentItems = sum.CurrentItems + Integer(stats, "curr_items"),
                Evictions = sum.Evictions + Counter("evictions"),
                GetHits = sum.GetHits + Counter("get_hits"),
                GetMisses = sum.GetMisses + Counter("get_misses"),
                BytesRead = sum.BytesRead + Counter("bytes_read"),
                BytesWritten = sum.BytesWritten + Counter("bytes_written"),
                CpuSeconds = sum.CpuSeconds + Real(stats, "rusage_user") + Real(stats, "rusage_system")
                    - (then is null ? 0 : Real(then, "rusage_user") + Real(then, "rusage_system")),
            };
        }

        return sum;
    }

    private static long Integer(IReadOnlyDictionary<string, string> stats, string name) =>
        stats.TryGetValue(name, out string? text) && long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value) ? value : 0;

    private static double Real(IReadOnlyDictionary<string, string> stats, string name) =>
        stats.TryGetValue(name, out string? text) && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) ? value : 0;
}
