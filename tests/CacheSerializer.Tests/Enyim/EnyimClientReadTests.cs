using CacheSerializer.Enyim;
using CacheSerializer.Tests.Memcached.Fixtures;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>The reads of <see cref="IMemcachedClient"/> against real memcached: what each returns on a hit and on a miss,
/// as EnyimMemcachedCore's MemcachedClient.cs (e383c4c) builds it.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class EnyimClientReadTests : IDisposable
{
    private readonly CoreClient _core;
    private readonly EnyimClient _client;

    public EnyimClientReadTests(MemcachedServerFixture fixture)
    {
        _core = fixture.CreateClient(serverCount: 2);
        _client = new EnyimClient(_core);
    }

    public void Dispose()
    {
        _client.Dispose();
        _core.Dispose();
    }

    [Fact]
    public async Task GetAsyncT_Hit_SuccessWithValueAndCasAndNoStatus()
    {
        // BuildGetCommandResult: Value, Cas (a binary get always returns it), Pass() (no status, no message).
        string key = Key("get");
        ulong cas = _client.Cas(StoreMode.Set, key, "v").Cas;

        IGetOperationResult<string> result = await _client.GetAsync<string>(key);

        Assert.True(result.Success);
        Assert.True(result.HasValue);
        Assert.Equal("v", result.Value);
        Assert.Equal(cas, result.Cas);
        Assert.Null(result.StatusCode);
        Assert.Null(result.Message);
    }

    [Fact]
    public async Task GetAsyncT_Miss_FailsWithNotFound()
    {
        // BuildGetCommandResult: the command's result combined in: status 1 (KEY_ENOENT), memcached's "Not found".
        IGetOperationResult<string> result = await _client.GetAsync<string>(Key("missing"));

        Assert.False(result.Success);
        Assert.False(result.HasValue);
        Assert.Null(result.Value);
        Assert.Equal(0ul, result.Cas);
        Assert.Equal(1, result.StatusCode);
        Assert.Equal("Not found", result.Message);
    }

    [Fact]
    public async Task Get_Miss_ReturnsTheDefault()
    {
        // Get<T>: "result.Success ? result.Value : default(T)"; Get(key): "TryGet(key, out tmp) ? tmp : null".
        string key = Key("missing");

        Assert.Equal(0, _client.Get<int>(key));
        Assert.Null(_client.Get<string>(key));
        Assert.Equal(0, await _client.GetValueAsync<int>(key));
#pragma warning disable CS0618 // the obsolete members are part of the interface
        Assert.Null(_client.Get(key));
        Assert.False((await _client.GetAsync(key)).Success);
        Assert.False(_client.TryGet(key, out object? value));
#pragma warning restore CS0618
        Assert.Null(value);
    }

    [Fact]
    public async Task Get_Hit_ReturnsTheValueByEveryForm()
    {
        string key = Key("hit");
        Assert.True(_client.Set(key, 42, 0));

        Assert.Equal(42, _client.Get<int>(key));
        Assert.Equal(42, await _client.GetValueAsync<int>(key));
        Assert.True(_client.TryGet(key, out int typed));
        Assert.Equal(42, typed);
#pragma warning disable CS0618 // the obsolete members are part of the interface
        Assert.Equal(42, _client.Get(key));
        Assert.Equal(42, (await _client.GetAsync(key)).Value);
        Assert.True(_client.TryGet(key, out object? untyped));
#pragma warning restore CS0618
        Assert.Equal(42, untyped);
    }

    [Fact]
    public void GetWithCas_HitAndMiss_ValueAndCasOrDefaultAndZero()
    {
        // GetWithCas<T>: "TryGetWithCas<T>(key, out var value) ? value : new CasResult<T> { Cas = value.Cas, Result = default }".
        string key = Key("cas");
        ulong cas = _client.Cas(StoreMode.Set, key, "v").Cas;
        string missing = Key("missing");

        Assert.Equal(new CasResult<string> { Result = "v", Cas = cas }, _client.GetWithCas<string>(key));
        Assert.Equal(new CasResult<object> { Result = "v", Cas = cas }, _client.GetWithCas(key));
        Assert.True(_client.TryGetWithCas(key, out CasResult<string> typed));
        Assert.Equal(new CasResult<string> { Result = "v", Cas = cas }, typed);
        Assert.True(_client.TryGetWithCas(key, out CasResult<object> untyped));
        Assert.Equal(new CasResult<object> { Result = "v", Cas = cas }, untyped);
        Assert.Equal(default, _client.GetWithCas<string>(missing));
        Assert.False(_client.TryGetWithCas(missing, out CasResult<object> none));
        Assert.Equal(default, none);
    }

    [Fact]
    public async Task GetMany_SomeMissing_ReturnsTheHitsOnly()
    {
        string[] keys = [Key("a"), Key("b"), Key("c")];
        Assert.True(_client.Set(keys[0], "A", 0));
        Assert.True(_client.Set(keys[2], "C", 0));
        var expected = new Dictionary<string, string> { [keys[0]] = "A", [keys[2]] = "C" };

        Assert.Equal(expected, _client.Get<string>(keys));
        Assert.Equal(expected, await _client.GetAsync<string>(keys));
    }

    [Fact]
    public async Task GetWithCasKeys_SomeMissing_ReturnsTheHitsWithTheirCas()
    {
        // GetWithCas(keys) (MemcachedClient.cs, e383c4c): each hit with mget.Cas[key]; a missing key is absent.
        string[] keys = [Key("a"), Key("b"), Key("c")];
        ulong a = _client.Cas(StoreMode.Set, keys[0], "A").Cas;
        ulong c = _client.Cas(StoreMode.Set, keys[2], "C").Cas;
        var expected = new Dictionary<string, CasResult<object>>
        {
            [keys[0]] = new() { Result = "A", Cas = a },
            [keys[2]] = new() { Result = "C", Cas = c },
        };

        Assert.Equal(expected, _client.GetWithCas(keys));
        Assert.Equal(expected, await _client.GetWithCasAsync(keys));
    }

    [Fact]
    public async Task GetValueOrCreateAsync_Miss_CallsTheGeneratorOnceAndAddsItsValue()
    {
        // GetValueOrCreateAsync: GetAsync, then on a miss the generator and AddAsync(key, value, cacheSeconds).
        string key = Key("create");
        int calls = 0;

        string created = await _client.GetValueOrCreateAsync(key, 60, () => Task.FromResult($"made {++calls}"));
        string cached = await _client.GetValueOrCreateAsync(key, 60, () => Task.FromResult($"made {++calls}"));

        Assert.Equal("made 1", created);
        Assert.Equal("made 1", cached);
        Assert.Equal(1, calls);
        Assert.InRange((await _core.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl, 58, 60);
    }

    [Fact]
    public async Task GetValueOrCreateAsync_GeneratorReturnsNull_StoresNothing()
    {
        // "if (value != null) ... AddAsync": a null value is returned and not cached, so the next call generates again.
        string key = Key("create-null");
        int calls = 0;

        Assert.Null(await _client.GetValueOrCreateAsync(key, 60, () => { calls++; return Task.FromResult<string>(null!); }));
        Assert.Null(await _client.GetValueOrCreateAsync(key, 60, () => { calls++; return Task.FromResult<string>(null!); }));

        Assert.Equal(2, calls);
        Assert.False((await _client.GetAsync<string>(key)).Success);
    }

    [Fact]
    public async Task TouchAsync_ExistingAndMissing_NewExpirationOrNotFound()
    {
        string key = Key("touch");
        Assert.True(_client.Set(key, "v", 0));

        IOperationResult bySpan = await _client.TouchAsync(key, TimeSpan.FromSeconds(100));
        long spanTtl = await TtlAsync(key);
        IOperationResult byDate = await _client.TouchAsync(key, DateTime.UtcNow.AddSeconds(200.5));
        long dateTtl = await TtlAsync(key);
        IOperationResult missing = await _client.TouchAsync(Key("missing"), TimeSpan.FromSeconds(100));

        Assert.True(bySpan.Success);
        Assert.InRange(spanTtl, 98, 100);
        Assert.True(byDate.Success);
        Assert.InRange(dateTtl, 198, 200);
        Assert.False(missing.Success);
        Assert.Equal(1, missing.StatusCode);
    }

    [Fact]
    public async Task Remove_ExistingAndMissing_TrueThenFalse()
    {
        string key = Key("remove");
        string other = Key("remove");
        Assert.True(_client.Set(key, "v", 0));
        Assert.True(_client.Set(other, "v", 0));

        Assert.True(_client.Remove(key));
        Assert.False(_client.Remove(key));
        Assert.True(await _client.RemoveAsync(other));
        Assert.False(await _client.RemoveAsync(other));
    }

    [Fact]
    public async Task RemoveMultiAsync_AllOrSomeOrNoKeys_TrueOnlyWhenEveryOneExisted()
    {
        // RemoveMultiAsync: every remove at once; false if one failed; false for no keys.
        string[] keys = [Key("m"), Key("m"), Key("m")];
        foreach (string key in keys)
        {
            Assert.True(_client.Set(key, "v", 0));
        }

        Assert.True(await _client.RemoveMultiAsync(keys));
        Assert.All(keys, key => Assert.False(_client.TryGet(key, out string _)));
        Assert.True(_client.Set(keys[0], "v", 0));
        Assert.False(await _client.RemoveMultiAsync(keys));
        Assert.False(_client.TryGet(keys[0], out string _));
        Assert.False(await _client.RemoveMultiAsync());
    }

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    private async Task<long> TtlAsync(string key) => (await _core.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
}
