using System.Diagnostics;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Items the reading build cannot read, on every read path of the client against real memcached (docs/client.md,
/// "Unreadable items"): the two builds of a rolling deploy are two transcoders that give <see cref="OrderBefore"/> and
/// <see cref="OrderAfter"/> the same type alias, as two builds give one type name to two versions of a class.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientUnreadableItemTests : IDisposable
{
    private readonly MemcachedServerFixture _fixture;
    private readonly List<IDisposable> _owned = [];
    private readonly ListLoggerProvider _logs = new();
    private readonly ILoggerFactory _loggerFactory;
    private readonly ClientMeterListener _meters;

    public MemcachedClientUnreadableItemTests(MemcachedServerFixture fixture)
    {
        _fixture = fixture;
        _loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(_logs).SetMinimumLevel(LogLevel.Debug));
        _meters = ClientMeterListener.ForPort(_fixture.Primary.Port, "cacheserializer.memcached.unreadable_items");
    }

    public static TheoryData<string> Scenarios => [.. DeployBuilds.Scenarios];

    public static TheoryData<string, string> PathsAndScenarios
    {
        get
        {
            var data = new TheoryData<string, string>();
            foreach (string path in new[] { "GetAsync", "GetWithCasAsync", "GetAndTouchAsync", "GetValueAsync", "GetManyAsync" })
            {
                foreach (string scenario in Scenarios)
                {
                    data.Add(path, scenario);
                }
            }

            return data;
        }
    }

    public static TheoryData<string, string> CreatePathsAndScenarios
    {
        get
        {
            var data = new TheoryData<string, string>();
            // Cache-aside filling with SetAsync (an overwrite) and the stampede-protected GetOrCreateAsync.
            foreach (string path in new[] { "GetOrCreateAsync", "CacheAside" })
            {
                foreach (string scenario in Scenarios)
                {
                    data.Add(path, scenario);
                }
            }

            return data;
        }
    }

    // The fixture's server is shared by the collection: only this test class's types count here.
    private IReadOnlyList<(string Reason, string Type)> Counted
    {
        get
        {
            ClientMeasurement[] ours = [.. _meters.Measurements.Where(static m => ((string)m.Tag("cacheserializer.memcached.unreadable.type")!).StartsWith(typeof(OrderBefore).Namespace + ".Order", StringComparison.Ordinal))];
            Assert.All(ours, static m => Assert.Equal("memcached", m.Tag("db.system.name")));
            return [.. ours.SelectMany(static m => Enumerable.Repeat(((string)m.Tag("cacheserializer.memcached.unreadable.reason")!, (string)m.Tag("cacheserializer.memcached.unreadable.type")!), (int)m.Value))];
        }
    }

    public void Dispose()
    {
        _meters.Dispose();
        foreach (IDisposable owned in _owned)
        {
            owned.Dispose();
        }

        _loggerFactory.Dispose();
    }

    /// <summary>The new build's client on the fixture's first server.</summary>
    private MemcachedClient Reader(Action<MemcachedClientOptions>? configure = null)
    {
        MemcachedClientOptions options = _fixture.Options();
        options.Transcoder = DeployBuilds.NewBuild();
        configure?.Invoke(options);
        var client = new MemcachedClient(options, _loggerFactory);
        _owned.Add(client);
        return client;
    }

    /// <summary>A client that stores items as they are given (flags and bytes).</summary>
    private MemcachedClient RawWriter()
    {
        MemcachedClient client = _fixture.CreateClient();
        _owned.Add(client);
        return client;
    }

    /// <summary>Stores under <paramref name="key"/> an item the new build cannot read, and returns the kind its
    /// transcoder reports for it.</summary>
    private async Task<TranscoderErrorKind> StoreUnreadableAsync(string scenario, string key)
    {
        (CacheItem item, TranscoderErrorKind kind) = DeployBuilds.Unreadable(scenario);
        Assert.Equal(MemcachedStoreResult.Stored, await RawWriter().Engine.StoreAsync(StoreMode.Set, key, item, null, 0, CancellationToken.None));
        return kind;
    }

    /// <summary>Reads <paramref name="key"/> through one read path; true when it found a value.</summary>
    private static async Task<bool> ReadAsync(MemcachedClient client, string path, string key) => path switch
    {
        "GetAsync" => (await client.GetAsync<OrderAfter>(key)).Found,
        "GetWithCasAsync" => (await client.GetWithCasAsync<OrderAfter>(key)).Found,
        "GetAndTouchAsync" => (await client.GetAndTouchAsync<OrderAfter>(key, TimeSpan.FromMinutes(1))).Found,
        "GetValueAsync" => await client.GetValueAsync<OrderAfter>(key) is not null,
        "GetManyAsync" => (await client.GetManyAsync<OrderAfter>([key])).ContainsKey(key),
        _ => throw new ArgumentOutOfRangeException(nameof(path), path, null),
    };

    /// <summary>Cache-aside whose fill is a set (an overwrite): a get, and on a miss the factory and a set.</summary>
    private static async Task<OrderAfter> ReadThroughAsync(MemcachedClient client, string key, Func<OrderAfter> factory)
    {
        MemcachedGetResult<OrderAfter> cached = await client.GetAsync<OrderAfter>(key);
        if (cached.Found)
        {
            return cached.Value!;
        }

        OrderAfter created = factory();
        await client.SetAsync(key, created);
        return created;
    }

    private IReadOnlyList<(LogLevel Level, string Message)> UnreadableLogs =>
        [.. _logs.Entries.Where(static e => e.Message.StartsWith("memcached client: an item of ", StringComparison.Ordinal))];

    private static async Task<T> WithinBoundAsync<T>(Task<T> task, string what)
    {
        Task first = await Task.WhenAny(task, Task.Delay(Bound.NotStuck));
        Assert.True(first == task, $"not within {Bound.NotStuck.TotalSeconds} s: {what}");
        return await task;
    }

    [Theory]
    [MemberData(nameof(PathsAndScenarios))]
    public async Task Read_UnreadableItem_MissOnEveryReadLoggedOnceCountedEachTime(string path, string scenario)
    {
        string key = MemcachedServerFixture.UniqueKey(path);
        TranscoderErrorKind kind = await StoreUnreadableAsync(scenario, key);
        MemcachedClient reader = Reader();

        bool first = await ReadAsync(reader, path, key);
        bool second = await ReadAsync(reader, path, key);

        Assert.False(first);
        Assert.False(second);
        (LogLevel level, string message) = Assert.Single(UnreadableLogs);
        Assert.Equal(kind == TranscoderErrorKind.Malformed ? LogLevel.Error : LogLevel.Warning, level);
        Assert.StartsWith($"memcached client: an item of {typeof(OrderAfter)} cannot be read ({DeployBuilds.ReasonTag(kind)}): ", message, StringComparison.Ordinal);
        Assert.Equal([(DeployBuilds.ReasonTag(kind), typeof(OrderAfter).ToString()), (DeployBuilds.ReasonTag(kind), typeof(OrderAfter).ToString())], Counted);
        Assert.True((await reader.Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit, "the item is kept (DeleteUnreadableItems is off)");
    }

    [Theory]
    [MemberData(nameof(CreatePathsAndScenarios))]
    public async Task Create_UnreadableItem_FactoryRunsOnceAndItsValueIsReadBack(string path, string scenario)
    {
        string key = MemcachedServerFixture.UniqueKey(path);
        TranscoderErrorKind kind = await StoreUnreadableAsync(scenario, key);
        CacheItem stored = DeployBuilds.Unreadable(scenario).Item;
        MemcachedClient reader = Reader();
        int calls = 0;

        OrderAfter? created = path == "GetOrCreateAsync"
            ? await reader.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter { Name = "fresh", Quantity = Interlocked.Increment(ref calls) }))
            : await ReadThroughAsync(reader, key, () => new OrderAfter { Name = "fresh", Quantity = Interlocked.Increment(ref calls) });
        MemcachedGetResult<OrderAfter> after = await reader.GetAsync<OrderAfter>(key);

        Assert.Equal(1, calls);
        Assert.Equal(("fresh", 1), (created!.Name, created.Quantity));
        Assert.True(after.Found);
        Assert.Equal(("fresh", 1), (after.Value!.Name, after.Value.Quantity));
        Assert.Single(UnreadableLogs);

        // Another build's item (another contract, an unknown type) stays where it is for GetOrCreateAsync: the value
        // goes into this build's copy beside it (docs/client.md, "Rolling deploys"), read through the item, which is
        // counted once by the call and once by the GetAsync after it. A corrupt item is replaced by the winner of the
        // farm, after a first read that finds it unreadable and marks it stale: counted twice by the call. The
        // cache-aside path here fills with SetAsync, an overwrite: the item is replaced, and counted once.
        bool otherBuild = kind is TranscoderErrorKind.OtherContract or TranscoderErrorKind.UnknownType;
        Assert.Equal(Enumerable.Repeat((DeployBuilds.ReasonTag(kind), typeof(OrderAfter).ToString()), path == "GetOrCreateAsync" ? 2 : 1), Counted);
        GetReply raw = await reader.Engine.Reads.GetRawAsync(key, CancellationToken.None);
        Assert.Equal(path == "GetOrCreateAsync" && otherBuild, raw.Item.Equals(stored));
    }

    [Theory]
    [MemberData(nameof(Scenarios))]
    public async Task Read_UnreadableItemUnderThrow_ThrowsTheTranscodersExceptionOnEveryPathAndLogsNothing(string scenario)
    {
        string key = MemcachedServerFixture.UniqueKey("throw");
        TranscoderErrorKind kind = await StoreUnreadableAsync(scenario, key);
        MemcachedClient reader = Reader(o => o.OnUnreadableItem = UnreadableItemPolicy.Throw);
        var thrown = new List<TranscoderException>();

        foreach (string path in new[] { "GetAsync", "GetWithCasAsync", "GetAndTouchAsync", "GetValueAsync", "GetManyAsync" })
        {
            thrown.Add(await Assert.ThrowsAnyAsync<TranscoderException>(() => ReadAsync(reader, path, key)));
        }

        thrown.Add(await Assert.ThrowsAnyAsync<TranscoderException>(() => reader.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter()))));

        Assert.All(thrown, e => Assert.Equal(kind, e.Kind));
        Assert.All(thrown, e => Assert.Equal(kind == TranscoderErrorKind.OtherContract, e is ContractMismatchException));
        Assert.Empty(UnreadableLogs);
        Assert.Equal(6, Counted.Count);
    }

    [Fact]
    public async Task GetAsync_OtherContract_WarningSaysWhatItMeansAndWhatToDo()
    {
        string key = MemcachedServerFixture.UniqueKey("text");
        await StoreUnreadableAsync("other_contract", key);
        MemcachedClient reader = Reader();
        ContractMismatchException expected = Assert.Throws<ContractMismatchException>(() => DeployBuilds.NewBuild().Deserialize<OrderAfter>(DeployBuilds.OldBuild().Serialize(new OrderBefore { Name = "old" })));

        await reader.GetAsync<OrderAfter>(key);

        (LogLevel level, string message) = Assert.Single(UnreadableLogs);
        Assert.Equal(LogLevel.Warning, level);
        Assert.Equal(
            $"memcached client: an item of {typeof(OrderAfter)} cannot be read (other_contract): it was written under another contract of the type, by another build of the application. "
            + "It was read as a miss (MemcachedClientOptions.OnUnreadableItem = Miss); expected during a rolling deploy, while builds with different models share the cache: "
            + "the entry is replaced when this build stores the key. If it goes on after the deploy, two running builds disagree on the type's contract: compare "
            + "ProtobufTranscoder.DescribeContract in each. Logged once per type and reason; cacheserializer.memcached.unreadable_items counts every one. "
            + $"Detail: {expected.Message}",
            message);
        Assert.DoesNotContain(_logs.Texts, t => t.Contains(key, StringComparison.Ordinal));
    }

    [Fact]
    public async Task GetAsync_CorruptItemsOfTwoTypes_OneErrorPerTypeAndReason()
    {
        string[] keys = [MemcachedServerFixture.UniqueKey("a"), MemcachedServerFixture.UniqueKey("b"), MemcachedServerFixture.UniqueKey("c")];
        foreach (string key in keys)
        {
            await StoreUnreadableAsync("corrupt_body", key);
        }

        MemcachedClient reader = Reader();

        await reader.GetAsync<OrderAfter>(keys[0]);
        await reader.GetAsync<OrderAfter>(keys[1]);
        await reader.GetAsync<object>(keys[2]);

        Assert.Equal([LogLevel.Error, LogLevel.Error], UnreadableLogs.Select(static e => e.Level));
        Assert.StartsWith($"memcached client: an item of {typeof(OrderAfter)} cannot be read (malformed): its bytes are corrupt: ", UnreadableLogs[0].Message, StringComparison.Ordinal);
        Assert.StartsWith("memcached client: an item of System.Object cannot be read (malformed): ", UnreadableLogs[1].Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetAsync_DeleteUnreadableItems_DeletesTheItemItRead()
    {
        string key = MemcachedServerFixture.UniqueKey("delete");
        await StoreUnreadableAsync("other_contract", key);
        MemcachedClient reader = Reader(o => o.DeleteUnreadableItems = true);
        var deleted = new TaskCompletionSource<(string Key, bool Deleted)>(TaskCreationOptions.RunContinuationsAsynchronously);
        reader.Engine.Reads.UnreadableDeleted = (k, d) => deleted.TrySetResult((k, d));

        MemcachedGetResult<OrderAfter> read = await reader.GetAsync<OrderAfter>(key);

        Assert.False(read.Found);
        Assert.Equal((key, true), await WithinBoundAsync(deleted.Task, "the delete"));
        Assert.False((await reader.Engine.Reads.GetRawAsync(key, CancellationToken.None)).Hit);
        Assert.Contains("It was read as a miss and deleted if unchanged since (DeleteUnreadableItems) (MemcachedClientOptions.OnUnreadableItem = Miss); ", Assert.Single(UnreadableLogs).Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetAsync_DeleteUnreadableItemsAfterAnotherWriterStoredTheKey_KeepsTheNewValue()
    {
        string key = MemcachedServerFixture.UniqueKey("race");
        await StoreUnreadableAsync("other_contract", key);
        MemcachedClient reader = Reader(o => o.DeleteUnreadableItems = true);
        MemcachedClient otherServer = Reader();
        var deleted = new TaskCompletionSource<(string Key, bool Deleted)>(TaskCreationOptions.RunContinuationsAsynchronously);
        reader.Engine.Reads.BeforeUnreadableDelete = async _ => Assert.Equal(MemcachedStoreResult.Stored, await otherServer.SetAsync(key, new OrderAfter { Name = "newer write", Quantity = 3 }));
        reader.Engine.Reads.UnreadableDeleted = (k, d) => deleted.TrySetResult((k, d));

        MemcachedGetResult<OrderAfter> read = await reader.GetAsync<OrderAfter>(key);
        (string, bool) outcome = await WithinBoundAsync(deleted.Task, "the delete");
        MemcachedGetResult<OrderAfter> after = await reader.GetAsync<OrderAfter>(key);

        Assert.False(read.Found);
        Assert.Equal((key, false), outcome);
        Assert.True(after.Found);
        Assert.Equal(("newer write", 3), (after.Value!.Name, after.Value.Quantity));
    }

    [Fact]
    public async Task GetManyAsync_UnreadableAndReadableKeys_ReturnsTheReadableOnes()
    {
        string bad = MemcachedServerFixture.UniqueKey("bad");
        string good = MemcachedServerFixture.UniqueKey("good");
        await StoreUnreadableAsync("unknown_type", bad);
        MemcachedClient reader = Reader();
        await reader.SetAsync(good, new OrderAfter { Name = "good", Quantity = 4 });

        IReadOnlyDictionary<string, OrderAfter?> read = await reader.GetManyAsync<OrderAfter>([bad, good]);

        KeyValuePair<string, OrderAfter?> only = Assert.Single(read);
        Assert.Equal((good, "good", 4), (only.Key, only.Value!.Name, only.Value.Quantity));
    }

    [Fact]
    public async Task GetOrCreateAsync_UnreadableEntryReadByAFarm_OneFactoryCallAndEveryCallerGetsTheFreshValue()
    {
        string key = MemcachedServerFixture.UniqueKey("farm");
        await StoreUnreadableAsync("other_contract", key);
        MemcachedClient[] farm = [Reader(), Reader(), Reader()];
        int calls = 0;

        async Task<OrderAfter> Factory(CancellationToken token)
        {
            Interlocked.Increment(ref calls);
            await Task.Delay(200, token); // long enough for every caller to see the entry while it is being created
            return new OrderAfter { Name = "fresh", Quantity = 5 };
        }

        Task<OrderAfter>[] callers = [.. Enumerable.Range(0, 30).Select(i => farm[i % farm.Length].GetOrCreateAsync(key, Factory))];
        OrderAfter[] values = await WithinBoundAsync(Task.WhenAll(callers), "the callers");

        Assert.Equal(1, calls);
        Assert.All(values, v => Assert.Equal(("fresh", 5), (v.Name, v.Quantity)));
    }

    [Fact]
    public async Task GetOrCreateAsync_UnreadableEntryInvalidated_TheWinnerReplacesIt()
    {
        string key = MemcachedServerFixture.UniqueKey("stale");
        await StoreUnreadableAsync("corrupt_body", key);
        MemcachedClient reader = Reader();
        Assert.True(await reader.InvalidateAsync(key));
        int calls = 0;

        OrderAfter value = await reader.GetOrCreateAsync(key, _ => Task.FromResult(new OrderAfter { Name = "fresh", Quantity = Interlocked.Increment(ref calls) }),
            new GetOrCreateOptions { StaleWhileRevalidate = TimeSpan.FromMinutes(1) });
        MemcachedGetResult<OrderAfter> after = await reader.GetAsync<OrderAfter>(key);

        Assert.Equal(1, calls);
        Assert.Equal(("fresh", 1), (value.Name, value.Quantity));
        Assert.Equal(("fresh", 1), (after.Value!.Name, after.Value.Quantity));
    }

    [Fact]
    public void Options_OnUnreadableItemOutOfRange_RefusedNamingTheProperty()
    {
        MemcachedClientOptions options = _fixture.Options();
        options.OnUnreadableItem = (UnreadableItemPolicy)7;

        MemcachedConfigurationException e = Assert.Throws<MemcachedConfigurationException>(() => new MemcachedClient(options));

        Assert.Equal("MemcachedClientOptions.OnUnreadableItem is 7; use Miss or Throw.", e.Message);
    }
}
