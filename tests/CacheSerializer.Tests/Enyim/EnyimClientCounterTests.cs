using CacheSerializer.Enyim;
using CacheSerializer.Tests.Memcached.Fixtures;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>Increment, decrement, append and prepend of <see cref="IMemcachedClient"/>, each overload, against real
/// memcached, as EnyimMemcachedCore's MemcachedClient.cs (e383c4c) and its binary protocol answer them.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class EnyimClientCounterTests : IDisposable
{
    // Each counter overload without a CAS: (client, key, defaultValue, delta) -> the new value.
    private static readonly Dictionary<string, (bool Decrement, Func<IMemcachedClient, string, ulong, ulong, ulong> Call, long Ttl)> Counters = new()
    {
        ["Increment"] = (false, (c, k, d, n) => c.Increment(k, d, n), -1),
        ["Increment(DateTime)"] = (false, (c, k, d, n) => c.Increment(k, d, n, DateTime.UtcNow.AddSeconds(60.5)), 60),
        ["Increment(TimeSpan)"] = (false, (c, k, d, n) => c.Increment(k, d, n, TimeSpan.FromSeconds(60)), 60),
        ["Decrement"] = (true, (c, k, d, n) => c.Decrement(k, d, n), -1),
        ["Decrement(DateTime)"] = (true, (c, k, d, n) => c.Decrement(k, d, n, DateTime.UtcNow.AddSeconds(60.5)), 60),
        ["Decrement(TimeSpan)"] = (true, (c, k, d, n) => c.Decrement(k, d, n, TimeSpan.FromSeconds(60)), 60),
    };

    // Each counter overload with a CAS.
    private static readonly Dictionary<string, (bool Decrement, Func<IMemcachedClient, string, ulong, ulong, ulong, CasResult<ulong>> Call)> CasCounters = new()
    {
        ["Increment(cas)"] = (false, (c, k, d, n, cas) => c.Increment(k, d, n, cas)),
        ["Increment(DateTime, cas)"] = (false, (c, k, d, n, cas) => c.Increment(k, d, n, DateTime.UtcNow.AddSeconds(60.5), cas)),
        ["Increment(TimeSpan, cas)"] = (false, (c, k, d, n, cas) => c.Increment(k, d, n, TimeSpan.FromSeconds(60), cas)),
        ["Decrement(cas)"] = (true, (c, k, d, n, cas) => c.Decrement(k, d, n, cas)),
        ["Decrement(DateTime, cas)"] = (true, (c, k, d, n, cas) => c.Decrement(k, d, n, DateTime.UtcNow.AddSeconds(60.5), cas)),
        ["Decrement(TimeSpan, cas)"] = (true, (c, k, d, n, cas) => c.Decrement(k, d, n, TimeSpan.FromSeconds(60), cas)),
    };

    private readonly CoreClient _core;
    private readonly EnyimClient _client;

    public EnyimClientCounterTests(MemcachedServerFixture fixture)
    {
        _core = fixture.CreateClient();
        _client = new EnyimClient(_core);
    }

    public static TheoryData<string> CounterNames => [.. Counters.Keys];

    public static TheoryData<string> CasCounterNames => [.. CasCounters.Keys];

    public void Dispose()
    {
        _client.Dispose();
        _core.Dispose();
    }

    [Theory]
    [MemberData(nameof(CounterNames))]
    public async Task Counter_MissingThenExisting_CreatedWithTheDefaultValueThenChangedByDelta(string counter)
    {
        // Increment(key, defaultValue, delta): the default value comes first. "The new value of the item or defaultValue
        // if the key was not found"; a decrement stops at 0; the expiration applies to the created counter.
        (bool decrement, Func<IMemcachedClient, string, ulong, ulong, ulong> call, long ttl) = Counters[counter];
        string key = MemcachedServerFixture.UniqueKey(counter);

        ulong created = call(_client, key, 100, 7);
        long createdTtl = (await _core.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
        ulong changed = call(_client, key, 100, 7);
        ulong floored = call(_client, key, 100, 1000);

        Assert.Equal(100ul, created);
        Assert.Equal(decrement ? 93ul : 107ul, changed);
        Assert.Equal(decrement ? 0ul : 1107ul, floored);
        Assert.InRange(createdTtl, ttl == -1 ? -1 : ttl - 2, ttl);
    }

    [Theory]
    [MemberData(nameof(CasCounterNames))]
    public void CasCounter_CurrentThenStaleCas_ChangedWithNewCasThenRefusedWithExists(string counter)
    {
        (bool decrement, Func<IMemcachedClient, string, ulong, ulong, ulong, CasResult<ulong>> call) = CasCounters[counter];
        string key = MemcachedServerFixture.UniqueKey(counter);

        CasResult<ulong> created = call(_client, key, 50, 5, 0); // 0: no check, as over the binary protocol
        CasResult<ulong> changed = call(_client, key, 50, 5, created.Cas);
        CasResult<ulong> refused = call(_client, key, 50, 5, created.Cas);

        Assert.Equal(50ul, created.Result);
        Assert.NotEqual(0ul, created.Cas);
        Assert.Equal(decrement ? 45ul : 55ul, changed.Result);
        Assert.NotEqual(created.Cas, changed.Cas);
        Assert.Equal(changed.Cas, _client.GetWithCas<string>(key).Cas);
        Assert.Equal(new CasResult<ulong> { Result = 0, Cas = 0, StatusCode = 2 }, refused);
        Assert.Equal(decrement ? "45" : "55", _client.Get<string>(key));
    }

    [Fact]
    public void AppendPrepend_ExistingAndMissing_BytesJoinedOrFalse()
    {
        string key = MemcachedServerFixture.UniqueKey("concat");
        Assert.True(_client.Store(StoreMode.Set, key, new byte[] { 1, 2 }));

        Assert.True(_client.Append(key, new ArraySegment<byte>([3])));
        Assert.True(_client.Prepend(key, new ArraySegment<byte>([0])));
        Assert.False(_client.Append(MemcachedServerFixture.UniqueKey("missing"), new ArraySegment<byte>([3])));
        Assert.False(_client.Prepend(MemcachedServerFixture.UniqueKey("missing"), new ArraySegment<byte>([3])));

        Assert.Equal(new byte[] { 0, 1, 2, 3 }, _client.Get<byte[]>(key));
    }

    [Fact]
    public void AppendPrependWithCas_CurrentThenStale_NewCasThenTheGivenCasBack()
    {
        // PerformConcatenate (MemcachedClient.cs, e383c4c): on success the new CAS; otherwise the CAS it was given, no status.
        string key = MemcachedServerFixture.UniqueKey("concat-cas");
        ulong cas = _client.Cas(StoreMode.Set, key, new byte[] { 1 }).Cas;

        CasResult<bool> appended = _client.Append(key, cas, new ArraySegment<byte>([2]));
        CasResult<bool> staleAppend = _client.Append(key, cas, new ArraySegment<byte>([9]));
        CasResult<bool> prepended = _client.Prepend(key, appended.Cas, new ArraySegment<byte>([0]));
        CasResult<bool> stalePrepend = _client.Prepend(key, appended.Cas, new ArraySegment<byte>([9]));

        Assert.True(appended.Result);
        Assert.NotEqual(cas, appended.Cas);
        Assert.Equal(new CasResult<bool> { Result = false, Cas = cas }, staleAppend);
        Assert.True(prepended.Result);
        Assert.Equal(prepended.Cas, _client.GetWithCas<byte[]>(key).Cas);
        Assert.Equal(new CasResult<bool> { Result = false, Cas = appended.Cas }, stalePrepend);
        Assert.Equal(new byte[] { 0, 1, 2 }, _client.Get<byte[]>(key));
    }
}
