using System.Reflection;
using CacheSerializer.LocalServers;
using StackExchange.Redis;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>The client benchmark's third contender: StackExchange.Redis, the client the house style measures ours
/// against, running the same loop as <see cref="ClientBenchmark"/>'s MemcachedClient run on a local redis-server.</summary>
/// <remarks>
/// One <see cref="ConnectionMultiplexer"/> per run (as SE.Redis recommends: one per application, and ours is one client
/// per run), <c>concurrency</c> tasks each looping over random keys among the same 10,000 pre-stored 64-byte ones:
/// 10% <c>StringSetAsync</c> of a fixed <c>byte[]</c>, 90% <c>StringGetAsync</c> whose value is taken as a
/// <c>byte[]</c> and its length checked. The server is another program (redis-server serves commands on one thread,
/// memcached here on two), so the ratios compare what an application gets from each client with its usual server.
/// </remarks>
internal static class StackExchangeRedisContender
{
    /// <summary>Gets the StackExchange.Redis version this build runs (without the commit suffix).</summary>
    internal static string ClientVersion =>
        typeof(ConnectionMultiplexer).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "unknown";

    /// <summary>The multiplexer's settings: defaults, except timeouts as long as our client's in this benchmark (10 s),
    /// so a loaded machine slows a run rather than failing it.</summary>
    internal static ConfigurationOptions Options(string endpoint) => new()
    {
        EndPoints = { endpoint },
        AbortOnConnectFail = true,
        ConnectTimeout = 10_000,
        AsyncTimeout = 10_000,
        SyncTimeout = 10_000,
    };

    /// <summary>The version redis-server reports (INFO server).</summary>
    internal static async Task<string> ServerVersionAsync(string endpoint)
    {
        await using ConnectionMultiplexer redis = await ConnectionMultiplexer.ConnectAsync(Options(endpoint));
        return redis.GetServer(endpoint).Version.ToString();
    }

    /// <summary>Stores every key, then runs the loop: a 1 s warm-up and <paramref name="seconds"/> measured, with
    /// redis-server's CPU time read from its process (/proc/&lt;pid&gt;/stat) before and after.</summary>
    internal static async Task<ClientBenchmark.RunResult> RunAsync(RedisServer server, int valueSize, int concurrency, int seconds)
    {
        await using ConnectionMultiplexer redis = await ConnectionMultiplexer.ConnectAsync(Options(server.Endpoint));
        IDatabase database = redis.GetDatabase();
        string[] keys = ClientBenchmark.Keys();
        byte[] value = ClientBenchmark.Value(valueSize);
        await FillAsync(database, keys, value);
        return await ClientBenchmark.MeasureAsync(
            (duration, histogram) => DriveAsync(database, keys, value, concurrency, duration, histogram),
            () => Task.FromResult(server.TotalProcessorTime.TotalSeconds),
            seconds);
    }

    /// <summary>Stores <paramref name="value"/> under every key, 500 at a time.</summary>
    internal static async Task FillAsync(IDatabase database, string[] keys, byte[] value)
    {
        foreach (string[] chunk in keys.Chunk(500))
        {
            bool[] stored = await Task.WhenAll(chunk.Select(k => database.StringSetAsync(k, value)));
            if (Array.IndexOf(stored, false) is var failed and >= 0)
            {
                throw new InvalidOperationException($"filling the keys: the set of {chunk[failed]} was not applied");
            }
        }
    }

    /// <summary>The loop (<see cref="ClientBenchmark.DriveAsync{TReply}"/>) with StackExchange.Redis's calls: each get's value is
    /// taken as a <c>byte[]</c>.</summary>
    /// <returns>The operations done.</returns>
    internal static Task<long> DriveAsync(IDatabase database, string[] keys, byte[] value, int concurrency, TimeSpan duration, long[]? histogram) =>
        ClientBenchmark.DriveAsync(
            keys, value.Length, concurrency, duration, histogram, k => database.StringSetAsync(k, value), k => database.StringGetAsync(k), static hit => (byte[]?)hit);
}
