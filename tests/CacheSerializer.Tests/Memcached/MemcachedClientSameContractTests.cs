using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// Build copies (docs/client.md, "Rolling deploys") cost nothing when every reader and writer has the same contract:
/// one get per read, counted by memcached itself (<c>stats</c>: <c>cmd_get</c>, <c>get_hits</c>, <c>get_misses</c>,
/// <c>cmd_set</c>, <c>total_items</c>), and under the key exactly the flags and bytes the transcoder's Serialize made,
/// read back over a socket of the test's own (<c>mg &lt;key&gt; v f</c>), not through the client.
/// </summary>
/// <remarks>The collection's tests run one at a time, so the counters' deltas are this test's requests alone.</remarks>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientSameContractTests(MemcachedServerFixture fixture) : IDisposable
{
    private const int Reads = 20;
    private const int ManyKeys = 10;

    private static readonly Order Value = new() { Id = 42, Name = "four widgets", Price = 19.5, Shipped = true };

    private readonly ProtobufTranscoder _transcoder = new();
    private readonly MemcachedClient _client = fixture.CreateClient();

    [Fact]
    public async Task GetAsync_NHitsWithOneContract_CostExactlyNGets()
    {
        string key = MemcachedServerFixture.UniqueKey("same-contract-get");
        Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, Value));

        ServerCounts before = await CountsAsync();
        for (int i = 0; i < Reads; i++)
        {
            Assert.Equal(Value, (await _client.GetAsync<Order>(key)).Value);
        }

        Assert.Equal(new ServerCounts(Gets: Reads, Hits: Reads, Misses: 0, Sets: 0, Items: 0), await CountsAsync() - before);
    }

    [Fact]
    public async Task GetManyAsync_KHitKeysWithOneContract_CostExactlyKGets()
    {
        string[] keys = [.. Enumerable.Range(0, ManyKeys).Select(static i => MemcachedServerFixture.UniqueKey($"same-contract-many-{i}"))];
        foreach (string key in keys)
        {
            Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, Value));
        }

        ServerCounts before = await CountsAsync();
        IReadOnlyDictionary<string, Order?> read = await _client.GetManyAsync<Order>(keys);
        ServerCounts delta = await CountsAsync() - before;

        Assert.Equal(keys.Order(StringComparer.Ordinal), read.Keys.Order(StringComparer.Ordinal));
        Assert.All(read.Values, value => Assert.Equal(Value, value));
        Assert.Equal(new ServerCounts(Gets: ManyKeys, Hits: ManyKeys, Misses: 0, Sets: 0, Items: 0), delta);
    }

    [Fact]
    public async Task GetOrCreateAsync_NHitsWithOneContract_CostExactlyNGets()
    {
        string key = MemcachedServerFixture.UniqueKey("same-contract-entry");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromMinutes(5) };
        Assert.Equal(Value, await _client.GetOrCreateAsync(key, _ => Task.FromResult(Value), options));

        ServerCounts before = await CountsAsync();
        for (int i = 0; i < Reads; i++)
        {
            Assert.Equal(Value, await _client.GetOrCreateAsync<Order>(key, _ => throw new InvalidOperationException("a hit called the factory"), options));
        }

        Assert.Equal(new ServerCounts(Gets: Reads, Hits: Reads, Misses: 0, Sets: 0, Items: 0), await CountsAsync() - before);
    }

    [Fact]
    public async Task AddAsync_FillAfterAMissWithOneContract_StoresOneItemOfTheTranscodersFlagsAndBytes()
    {
        string key = MemcachedServerFixture.UniqueKey("same-contract-fill");
        CacheItem expected = _transcoder.Serialize(Value);

        ServerCounts before = await CountsAsync();
        Assert.False((await _client.GetAsync<Order>(key)).Found);
        Assert.Equal(MemcachedStoreResult.Stored, await _client.AddAsync(key, Value));
        ServerCounts delta = await CountsAsync() - before;

        Assert.Equal(new ServerCounts(Gets: 1, Hits: 0, Misses: 1, Sets: 1, Items: 1), delta);
        (uint flags, byte[] data) = await ReadRawAsync(key);
        Assert.Equal(expected.Flags, flags);
        Assert.Equal(expected.Data.ToArray(), data);
    }

    [Fact]
    public async Task AddAsync_KeyHoldsAnItemOfTheSameContract_NotStoredAndNothingElseStored()
    {
        string key = MemcachedServerFixture.UniqueKey("same-contract-add");
        CacheItem expected = _transcoder.Serialize(Value);
        Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, Value));

        ServerCounts before = await CountsAsync();
        Assert.Equal(Value, (await _client.GetAsync<Order>(key)).Value);
        Assert.Equal(MemcachedStoreResult.NotStored, await _client.AddAsync(key, new Order { Id = 43, Name = "other" }));
        ServerCounts delta = await CountsAsync() - before;

        // The add is the one storage command memcached counts, and it linked no item (no copy beside the key).
        Assert.Equal(new ServerCounts(Gets: 1, Hits: 1, Misses: 0, Sets: 1, Items: 0), delta);
        (uint flags, byte[] data) = await ReadRawAsync(key);
        Assert.Equal(expected.Flags, flags);
        Assert.Equal(expected.Data.ToArray(), data);
    }

    public void Dispose() => _client.Dispose();

    private async Task<ServerCounts> CountsAsync()
    {
        IReadOnlyDictionary<string, string> stats = (await _client.GetStatsAsync())[fixture.Primary.Endpoint];
        return new ServerCounts(
            Gets: Count(stats, "cmd_get"),
            Hits: Count(stats, "get_hits"),
            Misses: Count(stats, "get_misses"),
            Sets: Count(stats, "cmd_set"),
            Items: Count(stats, "total_items"));

        static long Count(IReadOnlyDictionary<string, string> stats, string name) => long.Parse(stats[name], CultureInfo.InvariantCulture);
    }

    /// <summary>The item under <paramref name="key"/> as memcached holds it, over a connection of the test's own:
    /// <c>mg &lt;key&gt; v f</c> answers <c>VA &lt;size&gt; f&lt;flags&gt;</c>, the data and CRLF (memcached 1.6 meta protocol).</summary>
    private async Task<(uint Flags, byte[] Data)> ReadRawAsync(string key)
    {
        using var socket = new TcpClient();
        await socket.ConnectAsync(IPAddress.Loopback, fixture.Primary.Port);
        NetworkStream stream = socket.GetStream();
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"mg {key} v f\r\n"));

        var reply = new MemoryStream();
        byte[] buffer = new byte[4096];
        using var bound = new CancellationTokenSource(Bound.NotStuck);
        int headerEnd;
        while ((headerEnd = reply.ToArray().AsSpan().IndexOf("\r\n"u8)) < 0)
        {
            reply.Write(buffer, 0, await ReadSomeAsync(stream, buffer, bound.Token));
        }

        string[] header = Encoding.ASCII.GetString(reply.ToArray(), 0, headerEnd).Split(' ');
        Assert.Equal("VA", header[0]);
        int size = int.Parse(header[1], CultureInfo.InvariantCulture);
        Assert.StartsWith("f", header[2], StringComparison.Ordinal);
        uint flags = uint.Parse(header[2][1..], CultureInfo.InvariantCulture);
        int end = headerEnd + 2 + size + 2;
        while (reply.Length < end)
        {
            reply.Write(buffer, 0, await ReadSomeAsync(stream, buffer, bound.Token));
        }

        byte[] all = reply.ToArray();
        Assert.Equal(end, all.Length);
        Assert.True(all.AsSpan(end - 2).SequenceEqual("\r\n"u8), "the data ends with CRLF");
        return (flags, all[(headerEnd + 2)..(end - 2)]);

        static async Task<int> ReadSomeAsync(NetworkStream stream, byte[] buffer, CancellationToken token)
        {
            int read = await stream.ReadAsync(buffer, token);
            Assert.NotEqual(0, read);
            return read;
        }
    }

    /// <summary>A small protobuf object: a few members of the usual kinds.</summary>
    [ProtoBuf.ProtoContract]
    public sealed record class Order
    {
        [ProtoBuf.ProtoMember(1)]
        public int Id { get; init; }

        [ProtoBuf.ProtoMember(2)]
        public string? Name { get; init; }

        [ProtoBuf.ProtoMember(3)]
        public double Price { get; init; }

        [ProtoBuf.ProtoMember(4)]
        public bool Shipped { get; init; }
    }

    /// <summary>memcached's counters that a read or a fill moves.</summary>
    private readonly record struct ServerCounts(long Gets, long Hits, long Misses, long Sets, long Items)
    {
        public static ServerCounts operator -(ServerCounts after, ServerCounts before) =>
            new(after.Gets - before.Gets, after.Hits - before.Hits, after.Misses - before.Misses, after.Sets - before.Sets, after.Items - before.Items);
    }
}
