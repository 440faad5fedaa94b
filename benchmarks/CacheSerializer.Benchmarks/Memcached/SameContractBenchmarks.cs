using BenchmarkDotNet.Attributes;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>
/// The client's ordinary calls when every reader and writer has the same contract (no deploy under way), one at a time
/// against one real memcached on loopback: what build copies (docs/client.md, "Rolling deploys") must not make dearer.
/// Run at a commit before build copies and at one after, alternately, and compare (docs/benchmarks.md, "Build copies
/// when contracts agree").
/// </summary>
/// <remarks>
/// Only public API that exists unchanged before and after build copies, so the same file builds at both commits. The
/// value is the rpc message workload (2 ints, 3 strings, about 100 bytes as protobuf) through the default
/// <see cref="ProtobufTranscoder"/>. Each timed call is one request and its reply over loopback, so the figures are
/// mostly the round trip; allocations (MemoryDiagnoser counts every thread, the connection's reader included) are the
/// client's own.
/// </remarks>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class SameContractBenchmarks
{
    private const int ManyCount = 10;

    private readonly RpcMessage _value = WorkloadFactory.RpcMessage();
    private readonly GetOrCreateOptions _entry = new() { Expiration = TimeSpan.FromHours(1) };
    private readonly string[] _many = [.. Enumerable.Range(0, ManyCount).Select(static i => $"same-contract:many:{i}")];
    private MemcachedServer _server = null!;
    private MemcachedClient _client = null!;

    [GlobalSetup]
    public void Setup()
    {
        _server = MemcachedServer.Start();
        _client = new MemcachedClient(new MemcachedClientOptions { Servers = { _server.Endpoint } });
        Prime().GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _client.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _server.Dispose();
    }

    [Benchmark(Description = "GetAsync hit")]
    public async Task<RpcMessage?> GetHit() => (await _client.GetAsync<RpcMessage>("same-contract:hit")).Value;

    [Benchmark(Description = "GetAsync miss")]
    public async Task<bool> GetMiss() => (await _client.GetAsync<RpcMessage>("same-contract:absent")).Found;

    [Benchmark(Description = "AddAsync NotStored")]
    public Task<MemcachedStoreResult> AddExisting() => _client.AddAsync("same-contract:hit", _value);

    [Benchmark(Description = "GetManyAsync 10 hits")]
    public async Task<int> GetManyHits() => (await _client.GetManyAsync<RpcMessage>(_many)).Count;

    [Benchmark(Description = "GetOrCreateAsync hit")]
    public Task<RpcMessage> GetOrCreateHit() => _client.GetOrCreateAsync("same-contract:entry", Unexpected, _entry);

    private static Task<RpcMessage> Unexpected(CancellationToken cancellationToken) =>
        throw new InvalidOperationException("GetOrCreateAsync called its factory: the entry should have been a hit");

    /// <summary>Stores every key the hits read, and checks that each call does what its name says before it is timed.</summary>
    private async Task Prime()
    {
        SetupCheck.That(await _client.SetAsync("same-contract:hit", _value) == MemcachedStoreResult.Stored, "set of the hit key");
        foreach (string key in _many)
        {
            SetupCheck.That(await _client.SetAsync(key, _value) == MemcachedStoreResult.Stored, $"set of {key}");
        }

        await _client.GetOrCreateAsync("same-contract:entry", _ => Task.FromResult(_value), _entry);
        SetupCheck.That(_value.Equals(await GetHit()), "GetAsync hit");
        SetupCheck.That(!await GetMiss(), "GetAsync miss");
        SetupCheck.That(await AddExisting() == MemcachedStoreResult.NotStored, "AddAsync NotStored");
        SetupCheck.That(await GetManyHits() == ManyCount, "GetManyAsync 10 hits");
        SetupCheck.That(_value.Equals(await GetOrCreateHit()), "GetOrCreateAsync hit");
    }
}
