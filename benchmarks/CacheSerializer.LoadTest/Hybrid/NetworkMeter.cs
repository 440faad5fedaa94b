using System.Globalization;
using CacheSerializer.Memcached;
using StackExchange.Redis;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The bytes memcached and redis-server have read and written on the network, by their own counters: memcached's
/// <c>stats</c> (<c>bytes_read</c> + <c>bytes_written</c>, every server) and redis's <c>INFO stats</c>
/// (<c>total_net_input_bytes</c> + <c>total_net_output_bytes</c>). Read at phase boundaries, the difference is the
/// phase's traffic with both levels' servers (a contender uses one of them; the other only answers these reads).</summary>
internal sealed class NetworkMeter : IAsyncDisposable
{
    private readonly MemcachedClient _memcached;
    private readonly ConnectionMultiplexer _redis;
    private readonly IServer _redisServer;

    private NetworkMeter(MemcachedClient memcached, ConnectionMultiplexer redis, IServer redisServer)
    {
        _memcached = memcached;
        _redis = redis;
        _redisServer = redisServer;
    }

    /// <summary>Connects to the servers.</summary>
    /// <param name="memcached">The memcached servers (host:port).</param>
    /// <param name="redis">The redis-server (host:port).</param>
    /// <returns>The meter; dispose it to close its connections.</returns>
    public static async Task<NetworkMeter> OpenAsync(IReadOnlyList<string> memcached, string redis)
    {
        var options = new MemcachedClientOptions();
        foreach (string endpoint in memcached)
        {
            options.Servers.Add(endpoint);
        }

        // INFO is an admin command for StackExchange.Redis.
        ConnectionMultiplexer connection = await ConnectionMultiplexer.ConnectAsync($"{redis},allowAdmin=true").ConfigureAwait(false);
        return new NetworkMeter(new MemcachedClient(options), connection, connection.GetServer(redis));
    }

    /// <summary>Returns the bytes both servers have read and written since they started.</summary>
    /// <param name="cancellationToken">Cancels the reads.</param>
    /// <returns>The sum.</returns>
    /// <exception cref="InvalidOperationException">A server did not answer, or left a counter out.</exception>
    public async Task<long> ReadAsync(CancellationToken cancellationToken)
    {
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await _memcached.GetStatsAsync(cancellationToken).ConfigureAwait(false);
        if (stats.Count != _memcached.Servers.Count)
        {
            throw new InvalidOperationException($"memcached stats answered by {stats.Count} of {_memcached.Servers.Count} servers");
        }

        long bytes = stats.Values.Sum(s => Counter(s, "bytes_read", "memcached") + Counter(s, "bytes_written", "memcached"));
        IGrouping<string, KeyValuePair<string, string>>[] info = await _redisServer.InfoAsync("stats").ConfigureAwait(false);
        var redis = info.SelectMany(g => g).ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal);
        return bytes + Counter(redis, "total_net_input_bytes", "redis-server") + Counter(redis, "total_net_output_bytes", "redis-server");
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        await _memcached.DisposeAsync().ConfigureAwait(false);
        await _redis.DisposeAsync().ConfigureAwait(false);
    }

    private static long Counter(IReadOnlyDictionary<string, string> stats, string name, string server) =>
        stats.TryGetValue(name, out string? text) && long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long value)
            ? value
            : throw new InvalidOperationException($"{server} did not report {name}");
}
