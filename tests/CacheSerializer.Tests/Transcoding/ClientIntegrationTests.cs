using System.Reflection;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using CacheSerializer.Tests.Transcoding.Contracts;
using CacheSerializer.Tests.Transcoding.Messages;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// Every kind of value the transcoder stores, set through the real client into a real memcached and read back both
/// ways (untyped, and as its own type), exactly: flags and bytes survive the server and the protocol.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class ClientIntegrationTests(MemcachedServerFixture fixture) : IAsyncLifetime
{
    private static readonly MethodInfo TypedGet = typeof(ClientIntegrationTests).GetMethod(nameof(GetTyped), BindingFlags.NonPublic | BindingFlags.Static)!;

    /// <summary>The values beyond the native types: null, contracts, a message, protocol-looking text, a near-limit array (also sent over TLS by the TLS tests).</summary>
    internal static readonly IReadOnlyDictionary<string, object?> Objects = new Dictionary<string, object?>
    {
        ["null"] = null,
        ["object-shared-folder"] = Samples.Tree(),
        ["object-list-of-contracts"] = new List<Item> { new() { Name = "a" }, new Folder { Name = "b", Children = [] } },
        ["message-person"] = new Person { Name = "Ada", Id = 1815, Emails = { "ada@example.org" } },
        ["string-protocol-lines"] = "\r\nEND\r\nVA 5 \r\n",
        ["bytes-1mib-minus-1kib"] = Enumerable.Range(0, (1024 * 1024) - 1024).Select(i => (byte)(i * 31)).ToArray(),
    };

    private MemcachedClient _client = null!;
    private MemcachedClient _compressing = null!;

    public static TheoryData<string> Cases()
    {
        var data = new TheoryData<string>();
        foreach (string name in NativeCases.All.Keys.Concat(Objects.Keys))
        {
            data.Add(name);
        }

        return data;
    }

    public Task InitializeAsync()
    {
        // Throw, not the default Miss: a value these round trips cannot read must fail with the transcoder's own message.
        _client = fixture.CreateClient(configure: o => o.OnUnreadableItem = UnreadableItemPolicy.Throw);
        _compressing = fixture.CreateClient(configure: o =>
        {
            o.OnUnreadableItem = UnreadableItemPolicy.Throw;
            o.Transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions
            {
                Compression = TranscoderCompression.Brotli,
                CompressionThreshold = 16,
            });
        });
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        await _client.DisposeAsync();
        await _compressing.DisposeAsync();
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task SetThenGet_EveryKindThroughRealMemcached_ComesBackIdenticalBothWays(string name)
    {
        foreach (MemcachedClient client in new[] { _client, _compressing })
        {
            await AssertRoundTripsBothWaysAsync(client, MemcachedServerFixture.UniqueKey("transcoder-" + name), ValueOf(name));
        }
    }

    /// <summary>The value of a case of <see cref="Cases"/>.</summary>
    internal static object? ValueOf(string name) => NativeCases.All.TryGetValue(name, out object? native) ? native : Objects[name];

    /// <summary>Sets <paramref name="value"/> under <paramref name="key"/>, then asserts it reads back identical both
    /// ways: untyped, and as its own type.</summary>
    internal static async Task AssertRoundTripsBothWaysAsync(MemcachedClient client, string key, object? value)
    {
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync<object?>(key, value));
        MemcachedGetResult<object?> untyped = await client.GetAsync<object?>(key);
        MemcachedGetResult<object?> typed = value is null ? untyped : await (Task<MemcachedGetResult<object?>>)TypedGet.MakeGenericMethod(value.GetType()).Invoke(null, [client, key])!;

        Assert.True(untyped.Found);
        Assert.True(typed.Found);
        ValueAssert.Identical(value, untyped.Value);
        ValueAssert.Identical(value, typed.Value);
    }

    [Fact]
    public async Task SetThenGet_ProtobufNetGuardedShapes_ComeBackExactlyThroughRealMemcached()
    {
        string key = MemcachedServerFixture.UniqueKey("transcoder-guarded");
        var kennel = new Kennel { Resident = new Dog { Name = "Rex", Legs = 4, GoodBoy = true }, Visitors = [] };
        var values = new BclValues { When = new DateTime(638_000_000_000_000_123, DateTimeKind.Utc), Money = 1.50m, Version = new Version(1, 2) };
        var lists = new Unwrapped { Names = [], Numbers = null, Counts = new() { ["a"] = 1 } };

        await _client.SetAsync(key + ":kennel", kennel);
        await _client.SetAsync(key + ":values", values);
        await _client.SetAsync(key + ":lists", lists);
        Kennel kennelBack = (await _client.GetAsync<Kennel>(key + ":kennel")).Value!;
        BclValues valuesBack = (await _client.GetAsync<BclValues>(key + ":values")).Value!;
        Unwrapped listsBack = (await _client.GetAsync<Unwrapped>(key + ":lists")).Value!;

        Assert.Equal(new Dog { Name = "Rex", Legs = 4, GoodBoy = true }, Assert.IsType<Dog>(kennelBack.Resident));
        Assert.Equal([], kennelBack.Visitors!);
        Assert.Equal(values, valuesBack);
        Assert.Equal(DateTimeKind.Utc, valuesBack.When.Kind);
        Assert.Equal(decimal.GetBits(1.50m), decimal.GetBits(valuesBack.Money));
        Assert.Equal([], listsBack.Names!);
        Assert.Null(listsBack.Numbers);
        Assert.Equal(1, listsBack.Counts!["a"]);
        await Assert.ThrowsAsync<TranscoderException>(() => _client.SetAsync(key + ":refused", new Extended { Extra = 1 }));
    }

    private static async Task<MemcachedGetResult<object?>> GetTyped<T>(MemcachedClient client, string key)
    {
        MemcachedGetResult<T> result = await client.GetAsync<T>(key);
        return result.Found ? new MemcachedGetResult<object?>(result.Value, result.Cas) : default;
    }
}
