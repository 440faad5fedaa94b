using CacheSerializer.Enyim;
using CacheSerializer.Tests.Memcached.Fixtures;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>Every store of <see cref="IMemcachedClient"/> (Add, Set, Replace, Store, StoreAsync, Cas: each overload, sync
/// and async) against real memcached, with the expiration each sends, as EnyimMemcachedCore's MemcachedClient.cs
/// (e383c4c) maps its arguments: <c>cacheSeconds</c> through <c>TimeSpan.FromSeconds</c>, then <c>GetExpiration</c>.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class EnyimClientStoreTests : IDisposable
{
    private const long Never = -1;

    // In a minute from the call (memcached's clock has whole seconds: the TTL it reports is then 59 or 60).
    private static DateTime InAMinute => DateTime.UtcNow.AddSeconds(60.5);

    // Each store overload: its mode, the call, and the TTL memcached then reports (60 s, or -1 for never).
    private static readonly Dictionary<string, (StoreMode Mode, Func<IMemcachedClient, string, object, Task<bool>> Call, long Ttl)> Stores = new()
    {
        ["Add(int)"] = (StoreMode.Add, (c, k, v) => Task.FromResult(c.Add(k, v, 60)), 60),
        ["Add(uint)"] = (StoreMode.Add, (c, k, v) => Task.FromResult(c.Add(k, v, 60u)), 60),
        ["Add(TimeSpan)"] = (StoreMode.Add, (c, k, v) => Task.FromResult(c.Add(k, v, TimeSpan.FromSeconds(60))), 60),
        ["AddAsync(int)"] = (StoreMode.Add, (c, k, v) => c.AddAsync(k, v, 60), 60),
        ["AddAsync(uint)"] = (StoreMode.Add, (c, k, v) => c.AddAsync(k, v, 60u), 60),
        ["AddAsync(TimeSpan)"] = (StoreMode.Add, (c, k, v) => c.AddAsync(k, v, TimeSpan.FromSeconds(60)), 60),
        ["Set(int)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Set(k, v, 60)), 60),
        ["Set(uint)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Set(k, v, 60u)), 60),
        ["Set(TimeSpan)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Set(k, v, TimeSpan.FromSeconds(60))), 60),
        ["SetAsync(int)"] = (StoreMode.Set, (c, k, v) => c.SetAsync(k, v, 60), 60),
        ["SetAsync(uint)"] = (StoreMode.Set, (c, k, v) => c.SetAsync(k, v, 60u), 60),
        ["SetAsync(TimeSpan)"] = (StoreMode.Set, (c, k, v) => c.SetAsync(k, v, TimeSpan.FromSeconds(60)), 60),
        ["Replace(int)"] = (StoreMode.Replace, (c, k, v) => Task.FromResult(c.Replace(k, v, 60)), 60),
        ["Replace(uint)"] = (StoreMode.Replace, (c, k, v) => Task.FromResult(c.Replace(k, v, 60u)), 60),
        ["Replace(TimeSpan)"] = (StoreMode.Replace, (c, k, v) => Task.FromResult(c.Replace(k, v, TimeSpan.FromSeconds(60))), 60),
        ["ReplaceAsync(int)"] = (StoreMode.Replace, (c, k, v) => c.ReplaceAsync(k, v, 60), 60),
        ["ReplaceAsync(uint)"] = (StoreMode.Replace, (c, k, v) => c.ReplaceAsync(k, v, 60u), 60),
        ["ReplaceAsync(TimeSpan)"] = (StoreMode.Replace, (c, k, v) => c.ReplaceAsync(k, v, TimeSpan.FromSeconds(60)), 60),
        ["Store(Add)"] = (StoreMode.Add, (c, k, v) => Task.FromResult(c.Store(StoreMode.Add, k, v)), Never),
        ["Store(Set)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Store(StoreMode.Set, k, v)), Never),
        ["Store(Replace)"] = (StoreMode.Replace, (c, k, v) => Task.FromResult(c.Store(StoreMode.Replace, k, v)), Never),
        ["Store(Set, DateTime)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Store(StoreMode.Set, k, v, InAMinute)), 60),
        ["Store(Set, TimeSpan)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Store(StoreMode.Set, k, v, TimeSpan.FromSeconds(60))), 60),
        ["StoreAsync(Add, DateTime)"] = (StoreMode.Add, (c, k, v) => c.StoreAsync(StoreMode.Add, k, v, InAMinute), 60),
        ["StoreAsync(Replace, TimeSpan)"] = (StoreMode.Replace, (c, k, v) => c.StoreAsync(StoreMode.Replace, k, v, TimeSpan.FromSeconds(60)), 60),
        ["Cas(Set)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Cas(StoreMode.Set, k, v).Result), Never),
        ["Cas(Add, 0)"] = (StoreMode.Add, (c, k, v) => Task.FromResult(c.Cas(StoreMode.Add, k, v, 0).Result), Never),
        ["Cas(Replace, DateTime, 0)"] = (StoreMode.Replace, (c, k, v) => Task.FromResult(c.Cas(StoreMode.Replace, k, v, InAMinute, 0).Result), 60),
        ["Cas(Set, TimeSpan, 0)"] = (StoreMode.Set, (c, k, v) => Task.FromResult(c.Cas(StoreMode.Set, k, v, TimeSpan.FromSeconds(60), 0).Result), 60),
    };

    private readonly CoreClient _core;
    private readonly EnyimClient _client;

    public EnyimClientStoreTests(MemcachedServerFixture fixture)
    {
        _core = fixture.CreateClient();
        _client = new EnyimClient(_core);
    }

    public static TheoryData<string> StoreNames => [.. Stores.Keys];

    public void Dispose()
    {
        _client.Dispose();
        _core.Dispose();
    }

    [Theory]
    [MemberData(nameof(StoreNames))]
    public async Task Store_MissingKey_StoresUnlessReplaceWithItsExpiration(string store)
    {
        (StoreMode mode, Func<IMemcachedClient, string, object, Task<bool>> call, long ttl) = Stores[store];
        string key = MemcachedServerFixture.UniqueKey(store);

        bool stored = await call(_client, key, "new");

        Assert.Equal(mode != StoreMode.Replace, stored);
        Assert.Equal(stored ? "new" : null, _client.Get<string>(key));
        if (stored)
        {
            AssertTtl(ttl, await TtlAsync(key));
        }
    }

    [Theory]
    [MemberData(nameof(StoreNames))]
    public async Task Store_ExistingKey_StoresUnlessAdd(string store)
    {
        (StoreMode mode, Func<IMemcachedClient, string, object, Task<bool>> call, _) = Stores[store];
        string key = MemcachedServerFixture.UniqueKey(store);
        Assert.True(_client.Store(StoreMode.Set, key, "old"));

        bool stored = await call(_client, key, "new");

        Assert.Equal(mode != StoreMode.Add, stored);
        Assert.Equal(stored ? "new" : "old", _client.Get<string>(key));
    }

    [Theory]
    [MemberData(nameof(StoreNames))]
    public async Task Store_NullValue_StoresNothingAndReturnsFalse(string store)
    {
        // MemcachedClient.cs (e383c4c), PerformStore: "value is null" fails before anything is sent.
        (_, Func<IMemcachedClient, string, object, Task<bool>> call, _) = Stores[store];
        string key = MemcachedServerFixture.UniqueKey(store);
        Assert.True(_client.Store(StoreMode.Set, key, "old"));

        Assert.False(await call(_client, key, null!));
        Assert.Equal("old", _client.Get<string>(key));
    }

    public static TheoryData<string, long, long> Expirations => new()
    {
        // GetExpiration (MemcachedClient.cs, e383c4c): (uint)validFor.TotalSeconds, so a fraction is cut off and a
        // span under a second is 0, never; Zero and MaxValue are never; beyond 30 days an absolute time.
        { "1.5 s", 1, 1 },
        { "0.5 s", Never, Never },
        { "zero", Never, Never },
        { "TimeSpan.MaxValue", Never, Never },
        { "40 days", (40 * 86400) - 2, (40 * 86400) + 1 }, // memcached's clock may be a second behind the absolute time
        { "DateTime in 100 s", 98, 100 },
        { "DateTime.MaxValue", Never, Never },
        { "-5 s (int)", Never, Never },
    };

    [Theory]
    [MemberData(nameof(Expirations))]
    public async Task Store_Expiration_SentAsEnyimMemcachedCoreSendsIt(string expiration, long lowestTtl, long highestTtl)
    {
        string key = MemcachedServerFixture.UniqueKey("expiration");

        // memcached counts a relative TTL from its own clock's second, which ticks once a second: a tick between the set
        // and the read takes one off the TTL read. The set and the read are made again (at most 5 times) until
        // memcached's time (stats "time") is the same before and after them, so that the TTL read is the one sent.
        bool stored = false;
        long ttl = 0;
        for (int attempt = 0; attempt < 5; attempt++)
        {
            string before = await ServerTimesAsync();
            stored = expiration switch
            {
                "1.5 s" => _client.Set(key, "v", TimeSpan.FromSeconds(1.5)),
                "0.5 s" => _client.Set(key, "v", TimeSpan.FromSeconds(0.5)),
                "zero" => _client.Set(key, "v", TimeSpan.Zero),
                "TimeSpan.MaxValue" => _client.Store(StoreMode.Set, key, "v", TimeSpan.MaxValue),
                "40 days" => _client.Set(key, "v", TimeSpan.FromDays(40)),
                "DateTime in 100 s" => _client.Store(StoreMode.Set, key, "v", DateTime.Now.AddSeconds(100.5)),
                "DateTime.MaxValue" => _client.Store(StoreMode.Set, key, "v", DateTime.MaxValue),
                _ => _client.Set(key, "v", -5),
            };
            ttl = await TtlAsync(key);
            if (before == await ServerTimesAsync())
            {
                break;
            }
        }

        Assert.True(stored);
        Assert.InRange(ttl, lowestTtl, highestTtl);
    }

    [Fact]
    public void Store_DateTimeBefore1970_ThrowsArgumentOutOfRange()
    {
        // GetExpiration (MemcachedClient.cs, e383c4c): "expiresAt must be >= 1970/1/1".
        ArgumentOutOfRangeException error = Assert.Throws<ArgumentOutOfRangeException>(() => _client.Store(StoreMode.Set, "k", "v", new DateTime(1969, 12, 31)));

        Assert.Equal("expiresAt", error.ParamName);
    }

    [Fact]
    public void Cas_NoCas_ReturnsTheStoredItemsNewCas()
    {
        // MemcachedClient.cs (e383c4c), Cas(mode, key, value): the store's CAS token comes back in the result.
        string key = MemcachedServerFixture.UniqueKey("cas");

        CasResult<bool> first = _client.Cas(StoreMode.Set, key, "a");
        CasResult<bool> second = _client.Cas(StoreMode.Set, key, "b");

        Assert.True(first.Result);
        Assert.Equal(0, first.StatusCode);
        Assert.NotEqual(0ul, first.Cas);
        Assert.NotEqual(first.Cas, second.Cas);
        Assert.Equal(second.Cas, _client.GetWithCas<string>(key).Cas);
    }

    [Fact]
    public void Cas_CurrentCas_StoresAndReturnsTheNewCas()
    {
        string key = MemcachedServerFixture.UniqueKey("cas");
        ulong read = _client.Cas(StoreMode.Set, key, "a").Cas;

        CasResult<bool> swapped = _client.Cas(StoreMode.Set, key, "b", TimeSpan.FromSeconds(60), read);

        Assert.True(swapped.Result);
        Assert.NotEqual(read, swapped.Cas);
        CasResult<string> now = _client.GetWithCas<string>(key);
        Assert.Equal("b", now.Result);
        Assert.Equal(swapped.Cas, now.Cas);
    }

    [Fact]
    public void Cas_StaleCas_NotStoredWithStatusExistsAndNoCas()
    {
        // Over the binary protocol a CAS mismatch answers KEY_EEXISTS (2) with a CAS of 0.
        string key = MemcachedServerFixture.UniqueKey("cas");
        ulong stale = _client.Cas(StoreMode.Set, key, "a").Cas;
        Assert.True(_client.Set(key, "b", 0));

        CasResult<bool> swapped = _client.Cas(StoreMode.Set, key, "c", stale);

        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = 2 }, swapped);
        Assert.Equal("b", _client.Get<string>(key));
    }

    [Fact]
    public void Cas_MissingKeyWithCas_NotStoredWithStatusNotFound()
    {
        string key = MemcachedServerFixture.UniqueKey("cas");

        CasResult<bool> swapped = _client.Cas(StoreMode.Set, key, "c", InAMinute, 12345);

        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = 1 }, swapped);
    }

    [Fact]
    public void Cas_AddOfExistingAndReplaceOfMissing_StatusAsTheBinaryProtocol()
    {
        // memcached's binary protocol answers NOT_STORED of an add with KEY_EEXISTS and of a replace with KEY_ENOENT.
        string existing = MemcachedServerFixture.UniqueKey("cas");
        Assert.True(_client.Set(existing, "a", 0));

        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = 2 }, _client.Cas(StoreMode.Add, existing, "b"));
        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = 1 }, _client.Cas(StoreMode.Replace, MemcachedServerFixture.UniqueKey("cas"), "b"));
        Assert.Equal(new CasResult<bool> { Result = false, Cas = 0, StatusCode = -1 }, _client.Cas(StoreMode.Set, existing, null!));
    }

    private static void AssertTtl(long expected, long actual)
    {
        if (expected == Never)
        {
            Assert.Equal(Never, actual);
        }
        else
        {
            Assert.InRange(actual, expected - 2, expected);
        }
    }

    /// <summary>Each server's own time (stats "time", whole seconds), as one string.</summary>
    private async Task<string> ServerTimesAsync() =>
        string.Join(",", (await _core.GetStatsAsync()).OrderBy(static s => s.Key, StringComparer.Ordinal).Select(static s => s.Value["time"]));

    private async Task<long> TtlAsync(string key) => (await _core.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
}
