using System.Net;
using System.Net.Sockets;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientCommandTests : IDisposable
{
    private readonly MemcachedServerFixture _fixture;
    private readonly MemcachedClient _client;

    public MemcachedClientCommandTests(MemcachedServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.CreateClient();
    }

    public void Dispose() => _client.Dispose();

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    [Fact]
    public async Task GetAsync_Missing_IsMiss()
    {
        MemcachedGetResult<string> result = await _client.GetAsync<string>(Key("missing"));

        Assert.False(result.Found);
        Assert.Null(result.Value);
    }

    [Fact]
    public async Task SetAsync_ThenGet_ReturnsValue()
    {
        string key = Key("set");

        Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, "hello"));
        MemcachedGetResult<string> result = await _client.GetAsync<string>(key);

        Assert.True(result.Found);
        Assert.Equal("hello", result.Value);
    }

    [Theory]
    [InlineData(0u)]
    [InlineData(0xFA52u)]
    [InlineData(0x00010000u)]
    [InlineData(uint.MaxValue)]
    public async Task Transcoder_Flags_All32BitsRoundTrip(uint flags)
    {
        using MemcachedClient client = _fixture.CreateClient(configure: o => o.Transcoder = new ItemTranscoder());
        string key = Key("flags");

        await client.SetAsync(key, new CacheItem(flags, new ArraySegment<byte>([1, 2, 3])));
        MemcachedGetResult<CacheItem> read = await client.GetAsync<CacheItem>(key);

        Assert.Equal(flags, read.Value.Flags);
        Assert.Equal([1, 2, 3], read.Value.Data.ToArray());
    }

    [Fact]
    public async Task SetAsync_EmptyString_ReadsBackAsEmptyNotNull()
    {
        // EnyimMemcachedCore complaint: string.Empty read back as null.
        string key = Key("empty-string");
        await _client.SetAsync(key, string.Empty);

        MemcachedGetResult<string> result = await _client.GetAsync<string>(key);

        Assert.True(result.Found);
        Assert.Equal(string.Empty, result.Value);
    }

    public static TheoryData<string, byte[]> Values => new()
    {
        { "zero bytes", [] },
        { "crlf END crlf", Encoding.ASCII.GetBytes("\r\nEND\r\n") },
        { "VA 5", Encoding.ASCII.GetBytes("VA 5") },
        { "VA line with data", Encoding.ASCII.GetBytes("VA 5 f0\r\nhello\r\nMN\r\n") },
        { "all byte values", Enumerable.Range(0, 256).Select(i => (byte)i).ToArray() },
        { "1 MB", Enumerable.Range(0, 1_000_000).Select(i => (byte)(i * 31)).ToArray() },
    };

    [Theory]
    [MemberData(nameof(Values))]
    public async Task SetAsync_Bytes_RoundTripExactly(string name, byte[] value)
    {
        string key = Key("bytes-" + name.Replace(' ', '-'));
        await _client.SetAsync(key, value);

        MemcachedGetResult<byte[]> result = await _client.GetAsync<byte[]>(key);

        Assert.True(result.Found);
        Assert.Equal(value, result.Value);
    }

    [Fact]
    public async Task SetAsync_AboveClientLimit_FailsNamingSizeAndLimit()
    {
        // A transcoder with no limit of its own: the client's check is the one that refuses.
        using MemcachedClient client = _fixture.CreateClient(configure: o => o.Transcoder = new PassThroughTranscoder());
        byte[] value = new byte[(1024 * 1024) + 1];

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync(Key("too-large"), value));

        Assert.Equal(MemcachedErrorKind.ValueTooLarge, ex.Kind);
        Assert.Equal("set", ex.Operation);
        Assert.Equal(_fixture.Primary.Endpoint, ex.Server);
        Assert.Contains("1048577 bytes", ex.Message, StringComparison.Ordinal);
        Assert.Contains("1048576 bytes", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SetAsync_AboveLimitWithDefaultTranscoder_FailsAtSerializeNamingSizeAndLimit()
    {
        string key = Key("too-large-default");

        TranscoderException ex = await Assert.ThrowsAsync<TranscoderException>(() => _client.SetAsync(key, new byte[(1024 * 1024) + 1]));

        Assert.Equal(typeof(byte[]), ex.DataType);
        Assert.Contains("1048577 bytes", ex.Message, StringComparison.Ordinal);
        Assert.Contains("1048576 bytes", ex.Message, StringComparison.Ordinal);
        Assert.False((await _client.GetAsync<byte[]>(key)).Found);
    }

    [Fact]
    public async Task SetAsync_AboveServerLimit_FailsWithServerErrorNamingSize_AndConnectionStaysInStep()
    {
        // The client's limit is raised past memcached's default -I 1m, so the server is the one refusing.
        using MemcachedClient client = _fixture.CreateClient(configure: o => o.MaxValueSize = 4 * 1024 * 1024);
        string key = Key("server-too-large");

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync(key, new byte[2 * 1024 * 1024]));

        Assert.Equal(MemcachedErrorKind.ValueTooLarge, ex.Kind);
        Assert.Contains("2097152 bytes", ex.Message, StringComparison.Ordinal);
        Assert.Contains("SERVER_ERROR object too large for cache", ex.Message, StringComparison.Ordinal);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "after"));
        Assert.Equal("after", (await client.GetAsync<string>(key)).Value);
    }

    public static TheoryData<string> Keys => new()
    {
        "plain-key",
        "key with spaces",
        "ключ-日本語-🔑",
        new string('k', 250),
        new string('x', 251),
        new string('é', 400),
        "line\r\nEND\r\nbreak",
        string.Empty,
        "lone\uD800surrogate",
    };

    [Theory]
    [MemberData(nameof(Keys))]
    public async Task SetAsync_AnyKey_RoundTripsAndStaysDistinct(string suffix)
    {
        string key = Guid.NewGuid().ToString("N") + suffix;
        await _client.SetAsync(key, "v:" + suffix);

        Assert.Equal("v:" + suffix, (await _client.GetAsync<string>(key)).Value);
        Assert.False((await _client.GetAsync<string>(key + "x")).Found);
        Assert.True(await _client.DeleteAsync(key));
        Assert.False((await _client.GetAsync<string>(key)).Found);
    }

    [Fact]
    public async Task KeyPrefix_SeparatesClients()
    {
        using MemcachedClient a = _fixture.CreateClient(configure: o => o.KeyPrefix = "a:");
        using MemcachedClient b = _fixture.CreateClient(configure: o => o.KeyPrefix = "b:");
        string key = Key("prefixed");

        await a.SetAsync(key, "from a");

        Assert.False((await b.GetAsync<string>(key)).Found);
        Assert.Equal("from a", (await _client.GetAsync<string>("a:" + key)).Value);
    }

    [Fact]
    public async Task SetAsync_PlainKeyWithPrefix_AnotherClientReadsItUnderTheUtf8BytesOfPrefixAndKey()
    {
        using MemcachedClient prefixed = _fixture.CreateClient(configure: o => o.KeyPrefix = "app:");
        string key = Key("user/42");
        await prefixed.SetAsync(key, "plain");

        // A text-protocol get, as any other client sends it: memcached names the key it stored the item under.
        using var other = new TcpClient();
        await other.ConnectAsync(IPAddress.Loopback, _fixture.Primary.Port);
        NetworkStream stream = other.GetStream();
        await stream.WriteAsync(Encoding.UTF8.GetBytes($"get app:{key}\r\n"));
        var reply = new MemoryStream();
        byte[] buffer = new byte[4096];
        using var bound = new CancellationTokenSource(Bound.NotStuck);
        while (!reply.ToArray().AsSpan().EndsWith("END\r\n"u8))
        {
            int read = await stream.ReadAsync(buffer, bound.Token);
            Assert.NotEqual(0, read);
            reply.Write(buffer, 0, read);
        }

        string text = Encoding.UTF8.GetString(reply.ToArray());
        Assert.StartsWith($"VALUE app:{key} ", text, StringComparison.Ordinal);
        Assert.EndsWith("\r\nplain\r\nEND\r\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AddAsync_MissingThenExisting_StoredThenNotStored()
    {
        string key = Key("add");

        Assert.Equal(MemcachedStoreResult.Stored, await _client.AddAsync(key, "first"));
        Assert.Equal(MemcachedStoreResult.NotStored, await _client.AddAsync(key, "second"));
        Assert.Equal("first", (await _client.GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task ReplaceAsync_MissingThenExisting_NotStoredThenStored()
    {
        string key = Key("replace");

        Assert.Equal(MemcachedStoreResult.NotStored, await _client.ReplaceAsync(key, "x"));
        await _client.SetAsync(key, "old");
        Assert.Equal(MemcachedStoreResult.Stored, await _client.ReplaceAsync(key, "new"));
        Assert.Equal("new", (await _client.GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task AppendAndPrependAsync_ExistingAndMissing()
    {
        string key = Key("append");
        await _client.SetAsync(key, "mid");

        Assert.Equal(MemcachedStoreResult.Stored, await _client.AppendAsync(key, "-end"u8.ToArray()));
        Assert.Equal(MemcachedStoreResult.Stored, await _client.PrependAsync(key, "start-"u8.ToArray()));
        Assert.Equal("start-mid-end", (await _client.GetAsync<string>(key)).Value);
        Assert.Equal(MemcachedStoreResult.NotStored, await _client.AppendAsync(Key("append-missing"), "x"u8.ToArray()));
        Assert.Equal(MemcachedStoreResult.NotStored, await _client.PrependAsync(Key("prepend-missing"), "x"u8.ToArray()));
    }

    [Fact]
    public async Task CasAsync_UnchangedThenConflictThenMissing()
    {
        string key = Key("cas");
        await _client.SetAsync(key, "v1");
        MemcachedGetResult<string> read = await _client.GetWithCasAsync<string>(key);
        Assert.NotEqual(0ul, read.Cas);

        Assert.Equal(MemcachedStoreResult.Stored, await _client.CasAsync(key, "v2", read.Cas));
        Assert.Equal(MemcachedStoreResult.Exists, await _client.CasAsync(key, "v3", read.Cas));
        Assert.Equal("v2", (await _client.GetAsync<string>(key)).Value);
        await _client.DeleteAsync(key);
        Assert.Equal(MemcachedStoreResult.NotFound, await _client.CasAsync(key, "v4", read.Cas));
    }

    [Fact]
    public async Task CasAsync_ConcurrentWriters_ExactlyOneWinsPerRound()
    {
        string key = Key("cas-race");
        await _client.SetAsync(key, "0");
        MemcachedGetResult<string> read = await _client.GetWithCasAsync<string>(key);

        MemcachedStoreResult[] results = await Task.WhenAll(Enumerable.Range(0, 8).Select(i => _client.CasAsync(key, $"writer-{i}", read.Cas)));

        Assert.Equal(1, results.Count(r => r == MemcachedStoreResult.Stored));
        Assert.Equal(7, results.Count(r => r == MemcachedStoreResult.Exists));
    }

    [Fact]
    public async Task DeleteAsync_ExistingThenMissing_TrueThenFalse()
    {
        string key = Key("delete");
        await _client.SetAsync(key, "x");

        Assert.True(await _client.DeleteAsync(key));
        Assert.False(await _client.DeleteAsync(key));
    }

    [Fact]
    public async Task TouchAsync_ExistingThenMissing_TrueThenFalse()
    {
        string key = Key("touch");
        await _client.SetAsync(key, "x", TimeSpan.FromSeconds(100));

        Assert.True(await _client.TouchAsync(key, TimeSpan.FromSeconds(200)));
        Assert.False(await _client.TouchAsync(Key("touch-missing"), TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public async Task SetAsync_TtlFiveSeconds_ExpiresAndTouchExtends()
    {
        // memcached's clock moves in whole seconds: a TTL of 5 lives between 4 and 5 seconds, so the three round trips
        // before the first read have 4 s even on a loaded machine (a TTL of 2 left them 1 s). The wait is the TTL and a
        // tenth, as it was for 2 s.
        string expiring = Key("ttl");
        string touched = Key("ttl-touched");
        await _client.SetAsync(expiring, "x", TimeSpan.FromSeconds(5));
        await _client.SetAsync(touched, "y", TimeSpan.FromSeconds(5));
        Assert.True(await _client.TouchAsync(touched, TimeSpan.FromSeconds(60)));
        Assert.True((await _client.GetAsync<string>(expiring)).Found);

        await Task.Delay(5500);

        Assert.False((await _client.GetAsync<string>(expiring)).Found);
        Assert.Equal("y", (await _client.GetAsync<string>(touched)).Value);
    }

    [Fact]
    public async Task SetAsync_ExpirationBeyond30Days_IsSentAsUnixTimeAndDoesNotExpireAtOnce()
    {
        // memcached reads a relative TTL above 30 days as a Unix time (in 1970: already expired).
        string key = Key("ttl-31-days");

        await _client.SetAsync(key, "long", TimeSpan.FromDays(31));

        Assert.Equal("long", (await _client.GetAsync<string>(key)).Value);
    }

    public static TheoryData<string, double> FarFutureExpirations => new()
    {
        { "12 years", TimeSpan.FromDays(365 * 12).TotalSeconds },
        { "20 years", TimeSpan.FromDays(365 * 20).TotalSeconds },
        { "TimeSpan.MaxValue", TimeSpan.MaxValue.TotalSeconds },
    };

    [Theory]
    [MemberData(nameof(FarFutureExpirations))]
    public async Task SetAsync_ExpirationBeyond2038_EntryIsKeptUntil2038(string name, double seconds)
    {
        TimeSpan expiration = seconds >= TimeSpan.MaxValue.TotalSeconds ? TimeSpan.MaxValue : TimeSpan.FromSeconds(seconds);
        string key = Key("far:" + name);

        Assert.Equal(MemcachedStoreResult.Stored, await _client.SetAsync(key, "kept", expiration));

        Assert.Equal("kept", (await _client.GetAsync<string>(key)).Value);
        long remaining = (await _client.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
        long untilCap = int.MaxValue - DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        Assert.InRange(remaining, untilCap - 5, untilCap + 5); // memcached counts the TTL to 2038-01-19T03:14:07Z
    }

    [Fact]
    public async Task SetAsync_NegativeExpiration_ThrowsArgumentOutOfRange()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => _client.SetAsync(Key("negative"), "x", TimeSpan.FromSeconds(-1)));
    }

    [Fact]
    public async Task GetAndTouchAsync_HitAndMiss()
    {
        string key = Key("gat");
        await _client.SetAsync(key, "x", TimeSpan.FromSeconds(4)); // lives 3 to 4 s: the touch comes well before, even on a busy machine

        MemcachedGetResult<string> hit = await _client.GetAndTouchAsync<string>(key, TimeSpan.FromSeconds(60));
        await Task.Delay(4200);

        Assert.Equal("x", hit.Value);
        Assert.True((await _client.GetAsync<string>(key)).Found);
        Assert.False((await _client.GetAndTouchAsync<string>(Key("gat-missing"), TimeSpan.FromSeconds(5))).Found);
    }

    [Fact]
    public async Task IncrementAsync_MissingWithoutInitial_IsNull_WithInitial_Creates()
    {
        string key = Key("incr");

        Assert.Null(await _client.IncrementAsync(key));
        Assert.Equal(10ul, await _client.IncrementAsync(key, 5, initialValue: 10));
        Assert.Equal(15ul, await _client.IncrementAsync(key, 5, initialValue: 10));
        Assert.Equal(12ul, await _client.DecrementAsync(key, 3));
        Assert.Equal(0ul, await _client.DecrementAsync(key, 100));
        Assert.Equal(ulong.MaxValue, await _client.DecrementAsync(Key("decr-new"), 1, initialValue: ulong.MaxValue));
    }

    [Fact]
    public async Task IncrementAsync_NonNumericValue_ThrowsClientErrorNamingServerAndOperation()
    {
        string key = Key("incr-text");
        await _client.SetAsync(key, "abc");

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => _client.IncrementAsync(key));

        Assert.Equal(MemcachedErrorKind.ClientError, ex.Kind);
        Assert.Equal("incr", ex.Operation);
        Assert.Equal(_fixture.Primary.Endpoint, ex.Server);
        Assert.Contains("CLIENT_ERROR cannot increment or decrement non-numeric value", ex.Message, StringComparison.Ordinal);
        Assert.Equal("abc", (await _client.GetAsync<string>(key)).Value); // connection still in step
    }

    [Fact]
    public async Task GetAsync_WrongType_MissByDefaultTranscoderExceptionUnderThrow()
    {
        string key = Key("wrong-type");
        await _client.SetAsync(key, "text");
        await using MemcachedClient strict = _fixture.CreateClient(configure: o => o.OnUnreadableItem = UnreadableItemPolicy.Throw);

        MemcachedGetResult<byte[]> read = await _client.GetAsync<byte[]>(key);
        TranscoderException ex = await Assert.ThrowsAsync<TranscoderException>(() => strict.GetAsync<byte[]>(key));

        Assert.False(read.Found);
        Assert.Equal(TranscoderErrorKind.WrongType, ex.Kind);
    }

    [Fact]
    public async Task GetStatsAsync_ReturnsPerServerStats()
    {
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await _client.GetStatsAsync();

        Assert.Equal([_fixture.Primary.Endpoint], stats.Keys);
        Assert.Equal("1.6.18", stats[_fixture.Primary.Endpoint]["version"][..6]);
        Assert.True(long.Parse(stats[_fixture.Primary.Endpoint]["cmd_get"], System.Globalization.CultureInfo.InvariantCulture) >= 0);
    }

    [Fact]
    public async Task CancelledToken_FailsAtOnce_ConnectionStaysInStep()
    {
        string key = Key("cancel");
        await _client.SetAsync(key, "kept");
        using var cts = new CancellationTokenSource();
        await cts.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _client.GetAsync<string>(key, cts.Token));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _client.SetAsync(key, "changed", null, cts.Token));

        Assert.Equal("kept", (await _client.GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task CancelledWhileAwaitingReplies_OthersStillGetTheirOwnValues()
    {
        string[] keys = Enumerable.Range(0, 200).Select(i => Key($"cancel-mid-{i}")).ToArray();
        await Task.WhenAll(keys.Select(k => _client.SetAsync(k, k)));
        using var cts = new CancellationTokenSource();

        Task<MemcachedGetResult<string>>[] cancelled = keys.Select(k => _client.GetAsync<string>(k, cts.Token)).ToArray();
        await cts.CancelAsync();
        foreach (Task<MemcachedGetResult<string>> task in cancelled)
        {
            try
            {
                Assert.Equal(keys[Array.IndexOf(cancelled, task)], (await task).Value);
            }
            catch (OperationCanceledException)
            {
            }
        }

        MemcachedGetResult<string>[] after = await Task.WhenAll(keys.Select(k => _client.GetAsync<string>(k)));
        Assert.Equal(keys, after.Select(r => r.Value));
    }
}
