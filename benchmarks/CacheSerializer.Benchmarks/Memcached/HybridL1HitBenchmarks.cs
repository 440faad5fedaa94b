using BenchmarkDotNet.Attributes;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>
/// An L1 hit of <see cref="HybridCache.GetOrCreateAsync{T}(string, Func{CancellationToken, ValueTask{T}}, HybridCacheEntryOptions?, IEnumerable{string}?, CancellationToken)"/>:
/// the package's HybridCache in its default mode (<c>Bounded</c>: no request) and in <c>Strict</c> (one <c>mg c</c>
/// round trip), against Microsoft's HybridCache 10.11 over the same memcached (issue 39's target: the default mode's
/// hit no slower than Microsoft's, docs/benchmarks.md "HybridCache L1 hits").
/// </summary>
/// <remarks>
/// Two values: the rpc message (a sealed class without <c>[ImmutableObject(true)]</c>, so every hit of either
/// implementation deserializes a fresh copy from the bytes it keeps) and a string (immutable: the same instance). Each
/// cache is its own service provider over its own client; setup checks that every timed call is a hit that runs no
/// factory.
/// </remarks>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class HybridL1HitBenchmarks
{
    private const string MessageKey = "l1-hit:message";
    private const string TextKey = "l1-hit:text";

    private static readonly HybridCacheEntryOptions Entry = new() { Expiration = TimeSpan.FromHours(1), LocalCacheExpiration = TimeSpan.FromHours(1) };
    private static readonly Func<CancellationToken, ValueTask<RpcMessage>> NoMessage = static _ => throw new InvalidOperationException("the factory ran: not an L1 hit");
    private static readonly Func<CancellationToken, ValueTask<string>> NoText = static _ => throw new InvalidOperationException("the factory ran: not an L1 hit");

    private readonly RpcMessage _message = WorkloadFactory.RpcMessage();
    private readonly string _text = new('x', 100);
    private MemcachedServer _server = null!;
    private ServiceProvider _bounded = null!;
    private ServiceProvider _strict = null!;
    private ServiceProvider _microsoft = null!;
    private HybridCache _boundedCache = null!;
    private HybridCache _strictCache = null!;
    private HybridCache _microsoftCache = null!;

    [GlobalSetup]
    public void Setup()
    {
        _server = MemcachedServer.Start();
        _bounded = Provider("bounded:", s => s.AddMemcachedHybridCache());
        _strict = Provider("strict:", s => s.AddMemcachedHybridCache(o => o.L1Coherence = HybridCacheCoherence.Strict));
        _microsoft = Provider("microsoft:", s =>
        {
            s.AddHybridCache();
            s.AddHybridCacheTranscoder();
        });
        _boundedCache = _bounded.GetRequiredService<HybridCache>();
        _strictCache = _strict.GetRequiredService<HybridCache>();
        _microsoftCache = _microsoft.GetRequiredService<HybridCache>();
        Prime().GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _bounded.Dispose();
        _strict.Dispose();
        _microsoft.Dispose();
        _server.Dispose();
    }

    [Benchmark(Baseline = true, Description = "Microsoft's, message")]
    public ValueTask<RpcMessage> MicrosoftMessage() => _microsoftCache.GetOrCreateAsync(MessageKey, NoMessage, Entry);

    [Benchmark(Description = "package's Bounded, message")]
    public ValueTask<RpcMessage> BoundedMessage() => _boundedCache.GetOrCreateAsync(MessageKey, NoMessage, Entry);

    [Benchmark(Description = "package's Strict, message")]
    public ValueTask<RpcMessage> StrictMessage() => _strictCache.GetOrCreateAsync(MessageKey, NoMessage, Entry);

    [Benchmark(Description = "Microsoft's, string")]
    public ValueTask<string> MicrosoftText() => _microsoftCache.GetOrCreateAsync(TextKey, NoText, Entry);

    [Benchmark(Description = "package's Bounded, string")]
    public ValueTask<string> BoundedText() => _boundedCache.GetOrCreateAsync(TextKey, NoText, Entry);

    private ServiceProvider Provider(string prefix, Action<IServiceCollection> hybrid)
    {
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Servers.Add(_server.Endpoint);
            o.KeyPrefix = prefix;
        });
        hybrid(services);
        return services.BuildServiceProvider();
    }

    /// <summary>Fills each cache's L1 and checks that every benchmark's call is then a hit.</summary>
    private async Task Prime()
    {
        foreach (HybridCache cache in new[] { _boundedCache, _strictCache, _microsoftCache })
        {
            SetupCheck.That(_message.Equals(await cache.GetOrCreateAsync(MessageKey, _ => ValueTask.FromResult(_message), Entry)), "the message's fill");
            SetupCheck.That(_text == await cache.GetOrCreateAsync(TextKey, _ => ValueTask.FromResult(_text), Entry), "the string's fill");
        }

        // The package's Bounded mode serves L1 once its poller completed a poll of the invalidation log: until 100 of
        // its hits read nothing from memcached (the poller's own requests are arithmetic, not reads).
        MemcachedClient client = _bounded.GetRequiredService<MemcachedClient>();
        bool local = false;
        for (long deadline = Environment.TickCount64 + 10_000; !local && Environment.TickCount64 < deadline;)
        {
            long before = await ReadsAsync(client);
            for (int i = 0; i < 100; i++)
            {
                await BoundedMessage();
                await BoundedText();
            }

            local = await ReadsAsync(client) == before;
        }

        SetupCheck.That(local, "the Bounded hits from L1 without a request");
        SetupCheck.That(_message.Equals(await MicrosoftMessage()), "Microsoft's message hit");
        SetupCheck.That(_message.Equals(await BoundedMessage()), "the Bounded message hit");
        SetupCheck.That(_message.Equals(await StrictMessage()), "the Strict message hit");
        SetupCheck.That(_text == await MicrosoftText(), "Microsoft's string hit");
        SetupCheck.That(_text == await BoundedText(), "the Bounded string hit");
    }

    private static async Task<long> ReadsAsync(MemcachedClient client)
    {
        IReadOnlyDictionary<string, string> stats = (await client.GetStatsAsync()).Single().Value;
        return long.Parse(stats["cmd_get"], System.Globalization.CultureInfo.InvariantCulture);
    }
}
