using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using StackExchange.Redis;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The servers of one contender's faults phase, started for it and stopped after it: 3 memcached nodes with
/// little memory (<see cref="HybridSettings.FaultMemoryMegabytes"/>) for the contenders over memcached, or a
/// redis-server with that <c>--maxmemory</c> (<c>allkeys-lru</c>) and a replica of it (<c>--replicaof</c>) for those over
/// Redis; each one can be frozen, let run, killed and restarted (empty). Also the filler that fills their memory, and,
/// for the package's HybridCache, deletions of the records it keeps beside the entries.</summary>
internal sealed class FaultRig : IAsyncDisposable
{
    /// <summary>The package's invalidation log's ring size (its <c>InvalidationLog.RingSize</c>, internal to the
    /// package): log item n is <c>hc:log:&lt;n mod 1024&gt;</c>.</summary>
    private const int LogRingSize = 1024;

    /// <summary>The filler's values: small ones, the size of the entries and of the package's own records (so that they
    /// share their slab classes and LRUs), and large ones (100-500 KB, under memcached's 1 MB item limit), so that memory
    /// fills within a second or two.</summary>
    private static readonly byte[][] FillerValues = [.. new[] { 16, 40, 80, 120, 200, 100_000, 250_000, 500_000 }.Select(n => new byte[n])];

    private readonly ServerSet? _memcached;
    private readonly RedisServer? _primary;
    private readonly RedisServer? _replica;
    private readonly MemcachedClient? _client;
    private readonly ConnectionMultiplexer? _redis;

    private FaultRig(ServerSet memcached, MemcachedClient client, bool package)
    {
        _memcached = memcached;
        _client = client;
        Nodes = [.. memcached.Endpoints.Select(e => package ? e + Holding(client, e) : e)];
        Memcached = memcached.Endpoints;
        Redis = string.Empty;
        Description = string.Create(CultureInfo.InvariantCulture, $"{memcached.Endpoints.Count} memcached nodes ({memcached.Description}), hc:seq on {client.GetServerForKey("hc:seq")}");
    }

    private FaultRig(RedisServer primary, RedisServer replica, ConnectionMultiplexer redis, int megabytes)
    {
        _primary = primary;
        _replica = replica;
        _redis = redis;
        Nodes = [primary.Endpoint + " (primary)", replica.Endpoint + " (replica)"];
        Memcached = [];
        Redis = $"{primary.Endpoint},{replica.Endpoint}";
        Description = string.Create(CultureInfo.InvariantCulture, $"redis-server {primary.Endpoint} (--maxmemory {megabytes}mb, allkeys-lru) and its replica {replica.Endpoint} (--replicaof)");
    }

    /// <summary>Gets the servers, each with what it is or holds: <c>127.0.0.1:port (hc:seq)</c> (the package's
    /// HybridCache's records, for its contenders), <c>(primary)</c>.</summary>
    public IReadOnlyList<string> Nodes { get; }

    /// <summary>Gets the memcached servers for the web servers (none for the contenders over Redis).</summary>
    public IReadOnlyList<string> Memcached { get; }

    /// <summary>Gets the Redis configuration for the web servers: the primary and its replica (empty for memcached).</summary>
    public string Redis { get; }

    /// <summary>Gets what the servers are, for the report.</summary>
    public string Description { get; }

    /// <summary>Starts the servers of <paramref name="contender"/>'s faults phase.</summary>
    /// <param name="contender">The contender: over memcached, or over Redis.</param>
    /// <param name="settings">The run's settings (the servers' memory).</param>
    /// <returns>The servers; dispose to stop them.</returns>
    /// <exception cref="ServerUnavailableException">A server did not start.</exception>
    /// <exception cref="TimeoutException">The replica did not sync from its primary within 10 s.</exception>
    public static async Task<FaultRig> StartAsync(HybridContender contender, HybridSettings settings)
    {
        string megabytes = settings.FaultMemoryMegabytes.ToString(CultureInfo.InvariantCulture);
        if (HybridRunner.OnMemcached(contender))
        {
            var servers = ServerSet.Start(HybridSettings.FaultNodes, $"-m {megabytes}");
            return new FaultRig(servers, new MemcachedClient(LikeTheWebServers(servers.Endpoints)), contender is HybridContender.Bounded or HybridContender.Strict);
        }

        var primary = RedisServer.Start("--maxmemory", megabytes + "mb", "--maxmemory-policy", "allkeys-lru");
        RedisServer? replica = null;
        try
        {
            replica = RedisServer.Start("--replicaof", "127.0.0.1", primary.Port.ToString(CultureInfo.InvariantCulture), "--maxmemory", megabytes + "mb", "--maxmemory-policy", "allkeys-lru");
            ConnectionMultiplexer redis = await ConnectionMultiplexer.ConnectAsync($"{primary.Endpoint},{replica.Endpoint},allowAdmin=true,abortConnect=false").ConfigureAwait(false);
            var rig = new FaultRig(primary, replica, redis, settings.FaultMemoryMegabytes);
            await rig.UntilReplicaSyncedAsync().ConfigureAwait(false);
            return rig;
        }
        catch
        {
            replica?.Dispose();
            primary.Dispose();
            throw;
        }
    }

    /// <summary>Returns for each row of <paramref name="keys"/> whether it is placed on server <paramref name="index"/>:
    /// by the client's own placement for memcached; for Redis every key is on the primary (the replica serves no read).</summary>
    /// <param name="keys">The keys, by row.</param>
    /// <param name="index">The server's index in <see cref="Nodes"/>.</param>
    /// <returns>One flag per row.</returns>
    public bool[] KeysOn(IReadOnlyList<string> keys, int index) => _client is { } client
        ? [.. keys.Select(k => client.GetServerForKey(k) == Memcached[index])]
        : [.. keys.Select(_ => index == 0)];

    /// <summary>Freezes a server (SIGSTOP).</summary>
    /// <param name="index">Its index in <see cref="Nodes"/>.</param>
    public void Pause(int index) => Signal(index, s => s.Pause(index), r => r.Pause());

    /// <summary>Lets a frozen server run again (SIGCONT).</summary>
    /// <param name="index">Its index in <see cref="Nodes"/>.</param>
    public void Resume(int index) => Signal(index, s => s.Resume(index), r => r.Resume());

    /// <summary>Kills a server (SIGKILL).</summary>
    /// <param name="index">Its index in <see cref="Nodes"/>.</param>
    public void Kill(int index) => Signal(index, s => s.Kill(index), r => r.Kill());

    /// <summary>Starts a killed server again on its port, empty.</summary>
    /// <param name="index">Its index in <see cref="Nodes"/>.</param>
    public void Restart(int index) => Signal(index, s => s.Restart(index), r => r.Restart());

    /// <summary>Writes filler values under keys of its own until <paramref name="stop"/>, on two loops, a millisecond
    /// apart each: a few hundred writes a second, three eighths of them 100-500 KB, so that the servers' memory is full
    /// within a second or two and their LRUs evict. A write that fails (a server down, out of memory) is dropped.</summary>
    /// <param name="stop">Ends the filler.</param>
    /// <returns>The writes made.</returns>
    public async Task<long> FillAsync(CancellationToken stop)
    {
        long[] writes = new long[2];
        await Task.WhenAll(Enumerable.Range(0, writes.Length).Select(loop => Task.Run(
            async () =>
            {
                var random = new Random(loop);
                while (!stop.IsCancellationRequested)
                {
                    byte[] value = FillerValues[random.Next(FillerValues.Length)];
                    string key = string.Create(CultureInfo.InvariantCulture, $"filler:{loop}:{writes[loop]++}");
                    try
                    {
                        await WriteFillerAsync(key, value, stop).ConfigureAwait(false);
                        await Task.Delay(1, stop).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException) when (stop.IsCancellationRequested)
                    {
                        break;
                    }
                }
            },
            CancellationToken.None))).ConfigureAwait(false);
        return writes.Sum();
    }

    /// <summary>Writes 16 of the largest filler values at once, under keys numbered from <paramref name="first"/> (the
    /// filler's own follow on from it); returns how many were written.</summary>
    /// <param name="first">The number of the first key.</param>
    /// <param name="cancellationToken">Stops the writes.</param>
    /// <returns>The writes made.</returns>
    public async Task<long> FillBurstAsync(long first, CancellationToken cancellationToken)
    {
        byte[] value = FillerValues[^1];
        await Task.WhenAll(Enumerable.Range(0, 16).Select(i =>
            WriteFillerAsync(string.Create(CultureInfo.InvariantCulture, $"filler:burst:{first + i}"), value, cancellationToken))).ConfigureAwait(false);
        return 16;
    }

    /// <summary>One filler write, for 10 minutes; a server that fails it is not the filler's concern.</summary>
    private async Task WriteFillerAsync(string key, byte[] value, CancellationToken cancellationToken)
    {
        try
        {
            if (_client is { } client)
            {
                await client.SetAsync(key, value, TimeSpan.FromMinutes(10), cancellationToken).ConfigureAwait(false);
            }
            else
            {
                await _redis!.GetDatabase().StringSetAsync(key, value, TimeSpan.FromMinutes(10)).ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is MemcachedException or RedisException or TimeoutException)
        {
        }
    }

    /// <summary>Returns the items the servers have evicted since they started (memcached's <c>evictions</c> on every
    /// node; the primary redis-server's <c>evicted_keys</c>).</summary>
    /// <returns>The count.</returns>
    public async Task<long> EvictionsAsync()
    {
        if (_client is { } client)
        {
            IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await client.GetStatsAsync().ConfigureAwait(false);
            return stats.Values.Sum(s => s.TryGetValue("evictions", out string? text) ? long.Parse(text, CultureInfo.InvariantCulture) : 0);
        }

        IGrouping<string, KeyValuePair<string, string>>[] info = await _redis!.GetServer(_primary!.Endpoint).InfoAsync("stats").ConfigureAwait(false);
        string? evicted = info.SelectMany(g => g).FirstOrDefault(p => p.Key == "evicted_keys").Value;
        return evicted is null ? 0 : long.Parse(evicted, CultureInfo.InvariantCulture);
    }

    /// <summary>Deletes one of the records the package's HybridCache keeps beside the entries, with the client's
    /// <c>DeleteAsync</c> through a client configured like the web servers' (same servers, same key placement):
    /// <paramref name="kind"/> 0 the log's counter <c>hc:seq</c>, 1 the log item of the counter's current value (the one
    /// the pollers read next), 2 a tag's record <c>hc:tag:&lt;tag&gt;</c>, 3 the record of <c>*</c>, <c>hc:tag:*</c>.</summary>
    /// <param name="kind">What to delete, from 0 to 3.</param>
    /// <param name="tag">The tag, for kind 2.</param>
    /// <returns>What was deleted and whether memcached held it.</returns>
    public async Task<string> DeleteRecordAsync(int kind, string tag)
    {
        MemcachedClient client = _client ?? throw new InvalidOperationException("only the package's records, on memcached, are deleted");
        string key = kind switch
        {
            0 => "hc:seq",
            1 => "hc:log:" + ((await client.IncrementAsync("hc:seq", 0).ConfigureAwait(false) ?? 0) % LogRingSize).ToString(CultureInfo.InvariantCulture),
            2 => "hc:tag:" + tag,
            _ => "hc:tag:*",
        };
        bool held = await client.DeleteAsync(key).ConfigureAwait(false);
        return $"deleted {key} ({(held ? "held" : "missing")}, on {client.GetServerForKey(key)})";
    }

    /// <summary>Stops every server at once, without closing the clients first: for a process that exits mid-run, so that
    /// no server outlives it.</summary>
    public void Kill()
    {
        _memcached?.Dispose();
        _replica?.Dispose();
        _primary?.Dispose();
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        if (_client is not null)
        {
            await _client.DisposeAsync().ConfigureAwait(false);
        }

        if (_redis is not null)
        {
            await _redis.DisposeAsync().ConfigureAwait(false);
        }

        Kill();
    }

    /// <summary>Options like the web servers' (<see cref="HybridWebServer"/>): the same servers in the same order, no key
    /// prefix, the default placement, so that a key's server and its name on the wire are theirs.</summary>
    private static MemcachedClientOptions LikeTheWebServers(IReadOnlyList<string> endpoints)
    {
        var options = new MemcachedClientOptions { Transcoder = HybridBuild.First.CreateTranscoder() };
        foreach (string endpoint in endpoints)
        {
            options.Servers.Add(endpoint);
        }

        return options;
    }

    /// <summary>What of the package's log a server holds, for its name in the report.</summary>
    private static string Holding(MemcachedClient client, string endpoint)
    {
        string[] held = [.. new[] { "hc:seq", "hc:tag:*" }.Where(k => client.GetServerForKey(k) == endpoint)];
        return held.Length == 0 ? string.Empty : $" ({string.Join(", ", held)})";
    }

    private void Signal(int index, Action<ServerSet> memcached, Action<RedisServer> redis)
    {
        if (_memcached is not null)
        {
            memcached(_memcached);
        }
        else
        {
            redis(index == 0 ? _primary! : _replica!);
        }
    }

    /// <summary>Waits (10 s at most) until the replica says its link to the primary is up.</summary>
    private async Task UntilReplicaSyncedAsync()
    {
        IServer replica = _redis!.GetServer(_replica!.Endpoint);
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(10))
        {
            IGrouping<string, KeyValuePair<string, string>>[] info = await replica.InfoAsync("replication").ConfigureAwait(false);
            if (info.SelectMany(g => g).Any(p => p.Key == "master_link_status" && p.Value == "up"))
            {
                return;
            }

            await Task.Delay(50).ConfigureAwait(false);
        }

        throw new TimeoutException($"the replica {_replica.Endpoint} did not sync from {_primary!.Endpoint} within 10 s");
    }
}
