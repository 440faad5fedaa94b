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

    private static readonly IReadOnlyDictionary<string, object?> Objects = new Dictionary<string, object?>
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
        foreach (var name in NativeCases.All.Keys.Concat(Objects.Keys))
        {
            data.Add(name);
        }

        return data;
    }

    public Task InitializeAsync()
    {
        _client = fixture.CreateClient();
        _compressing = fixture.CreateClient(configure: o => o.Transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions
        {
            Compression = TranscoderCompression.Brotli,
            CompressionThreshold = 16,
        }));
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
        var value = NativeCases.All.TryGetValue(name, out var native) ? native : Objects[name];
        foreach (var client in new[] { _client, _compressing })
        {
            var key = MemcachedServerFixture.UniqueKey("transcoder-" + name);

            Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync<object?>(key, value));
            var untyped = await client.GetAsync<object?>(key);
            var typed = value is null ? untyped : await (Task<MemcachedGetResult<object?>>)TypedGet.MakeGenericMethod(value.GetType()).Invoke(null, [client, key])!;

            Assert.True(untyped.Found);
            Assert.True(typed.Found);
            ValueAssert.Identical(value, untyped.Value);
            ValueAssert.Identical(value, typed.Value);
        }
    }

    private static async Task<MemcachedGetResult<object?>> GetTyped<T>(MemcachedClient client, string key)
    {
        var result = await client.GetAsync<T>(key);
        return result.Found ? new MemcachedGetResult<object?>(result.Value, result.Cas) : default;
    }
}
