using System.Buffers;
using System.Buffers.Binary;
using System.ComponentModel;
using System.Diagnostics.CodeAnalysis;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Hosting;
using CacheSerializer.Tests.Memcached.Fixtures;
using CacheSerializer.Tests.Transcoding.Contracts;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>HybridCache with memcached as its L2 (through our <c>IDistributedCache</c>) and the transcoder as its serializer.</summary>
public sealed class HybridCacheTranscoderTests : IDisposable
{
    private readonly MemcachedServer _server = MemcachedServer.Start();

    public void Dispose() => _server.Dispose();

    private ServiceProvider Provider(bool transcoder = true, string? server = null, Action<IServiceCollection>? configure = null, UnreadableItemPolicy policy = UnreadableItemPolicy.Miss)
    {
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Servers.Add(server ?? _server.Endpoint);
            o.ConnectTimeout = TimeSpan.FromSeconds(1);
            o.OnUnreadableItem = policy;
        });
        services.AddHybridCache();
        if (transcoder)
        {
            services.AddHybridCacheTranscoder();
        }

        configure?.Invoke(services);
        return services.BuildServiceProvider();
    }

    /// <summary>A reader of the new build (<see cref="DeployBuilds.NewBuild"/>), logging into <paramref name="logs"/>.</summary>
    private ServiceProvider NewBuildReader(ListLoggerProvider logs, UnreadableItemPolicy policy = UnreadableItemPolicy.Miss) =>
        Provider(transcoder: false, policy: policy, configure: services =>
        {
            services.AddLogging(builder => builder.AddProvider(logs));
            services.AddHybridCacheTranscoder(DeployBuilds.NewBuild());
        });

    /// <summary>Stores <paramref name="item"/> as the L2 entry of <paramref name="key"/>, as a build that wrote it would.</summary>
    /// <summary>Waits until HybridCache's L2 write of a GetOrCreate has reached memcached: HybridCache may write L2 after it
    /// returns the factory's value, and disposing the provider (and its client) first would abort a write still on its way.</summary>
    private static Task UntilInL2Async(ServiceProvider provider, string key)
    {
        IDistributedCache l2 = provider.GetRequiredService<IDistributedCache>();
        return Poll.UntilAsync(async () => await l2.GetAsync(key) is not null, $"{key} in L2");
    }

    private async Task WriteEntryAsync(string key, CacheItem item)
    {
        await using ServiceProvider writer = Provider(transcoder: false, configure: services =>
            services.AddSingleton<IHybridCacheSerializerFactory>(new FixedEntrySerializerFactory(item)));
        await writer.GetRequiredService<HybridCache>().SetAsync(key, new OrderAfter());
    }

    [Fact]
    public async Task HybridCache_SerializerThrowsOnRead_TheCallerGetsTheExceptionAndAMutableTypesLocalEntryKeepsThrowing()
    {
        // What HybridCache 10.x does when a serializer throws, without the wrapper of AddHybridCacheTranscoder: the caller
        // gets the exception, whatever the type. An immutable type's entry (sealed, [ImmutableObject(true)]) is not kept
        // locally, so it reads fresh once the distributed entry is gone; a mutable one's entry is already in the local
        // cache, so every call throws, also after the distributed entry is removed, until it expires locally.
        await using (ServiceProvider writer = Provider())
        {
            HybridCache cache = writer.GetRequiredService<HybridCache>();
            await cache.SetAsync("hc:mutable", new OrderAfter { Name = "old" });
            await cache.SetAsync("hc:immutable", new FrozenOrder { Name = "old" });
        }

        await using ServiceProvider reader = Provider(transcoder: false, configure: services =>
            services.AddSingleton<IHybridCacheSerializerFactory>(new ThrowingSerializerFactory()));
        HybridCache hybrid = reader.GetRequiredService<HybridCache>();
        IDistributedCache l2 = reader.GetRequiredService<IDistributedCache>();

        InvalidDataException immutableFirst = await Assert.ThrowsAsync<InvalidDataException>(() => hybrid.GetOrCreateAsync("hc:immutable", _ => ValueTask.FromResult(new FrozenOrder { Name = "fresh" })).AsTask());
        InvalidDataException mutableFirst = await Assert.ThrowsAsync<InvalidDataException>(() => hybrid.GetOrCreateAsync("hc:mutable", _ => ValueTask.FromResult(new OrderAfter { Name = "fresh" })).AsTask());
        await l2.RemoveAsync("hc:immutable");
        await l2.RemoveAsync("hc:mutable");
        FrozenOrder immutable = await hybrid.GetOrCreateAsync("hc:immutable", _ => ValueTask.FromResult(new FrozenOrder { Name = "fresh" }));
        InvalidDataException mutableAgain = await Assert.ThrowsAsync<InvalidDataException>(() => hybrid.GetOrCreateAsync("hc:mutable", _ => ValueTask.FromResult(new OrderAfter { Name = "fresh" })).AsTask());

        Assert.Equal(("unreadable", "unreadable", "unreadable"), (immutableFirst.Message, mutableFirst.Message, mutableAgain.Message));
        Assert.Equal("fresh", immutable.Name);
    }

    [Theory]
    [MemberData(nameof(UnreadableScenarios))]
    public async Task GetOrCreate_UnreadableEntry_FactoryValueInBothLevelsLoggedOnceCounted(string scenario)
    {
        string key = "hc:" + scenario;
        (CacheItem item, TranscoderErrorKind kind) = DeployBuilds.Unreadable(scenario);
        await WriteEntryAsync(key, item);
        var logs = new ListLoggerProvider();
        // No server: the HybridCache serializer counts what it cannot read without one.
        using var meters = new ClientMeterListener(
            static m => !m.Tags.ContainsKey("server.port") && Equals(m.Tag("cacheserializer.memcached.unreadable.type"), typeof(OrderAfter).ToString()),
            "cacheserializer.memcached.unreadable_items");
        int calls = 0;
        ValueTask<OrderAfter> Factory(CancellationToken _) => ValueTask.FromResult(new OrderAfter { Name = "fresh", Quantity = Interlocked.Increment(ref calls) });

        OrderAfter[] read;
        await using (ServiceProvider reader = NewBuildReader(logs))
        {
            IDistributedCache l2 = reader.GetRequiredService<IDistributedCache>();
            byte[] unreadable = (await l2.GetAsync(key))!;
            HybridCache hybrid = reader.GetRequiredService<HybridCache>();
            read = [await hybrid.GetOrCreateAsync(key, Factory), await hybrid.GetOrCreateAsync(key, Factory), await hybrid.GetOrCreateAsync(key, Factory)];

            // HybridCache may write the factory's value to L2 after it returns it: wait for that write before the provider
            // (and its memcached client) is disposed, which would abort a write still on its way on a loaded machine.
            await Poll.UntilAsync(async () => await l2.GetAsync(key) is { } entry && !entry.AsSpan().SequenceEqual(unreadable), "the factory's value in L2");
        }

        OrderAfter fromL2;
        await using (ServiceProvider another = NewBuildReader(logs)) // an empty L1: the value can only come from memcached
        {
            fromL2 = await another.GetRequiredService<HybridCache>().GetOrCreateAsync<OrderAfter>(key, _ => throw new InvalidOperationException("L2 missed"));
        }

        Assert.Equal(1, calls);
        Assert.All(read, v => Assert.Equal(("fresh", 1), (v.Name, v.Quantity)));
        Assert.Equal(("fresh", 1), (fromL2.Name, fromL2.Quantity));
        (LogLevel level, string message) = Assert.Single(logs.Entries, e => e.Message.StartsWith("HybridCache serializer: ", StringComparison.Ordinal));
        Assert.Equal(kind == TranscoderErrorKind.Malformed ? LogLevel.Error : LogLevel.Warning, level);
        Assert.StartsWith($"HybridCache serializer: an item of {typeof(OrderAfter)} cannot be read ({DeployBuilds.ReasonTag(kind)}): ", message, StringComparison.Ordinal);
        Assert.Equal([DeployBuilds.ReasonTag(kind)], meters.Measurements.Select(static m => (string)m.Tag("cacheserializer.memcached.unreadable.reason")!));
    }

    [Fact]
    public async Task GetOrCreate_UnreadableEntryUnderThrow_TheApplicationGetsTheTranscodersException()
    {
        await WriteEntryAsync("hc:throw", DeployBuilds.Unreadable("other_contract").Item);
        await using ServiceProvider reader = NewBuildReader(new ListLoggerProvider(), UnreadableItemPolicy.Throw);

        ContractMismatchException ex = await Assert.ThrowsAsync<ContractMismatchException>(() =>
            reader.GetRequiredService<HybridCache>().GetOrCreateAsync("hc:throw", _ => ValueTask.FromResult(new OrderAfter())).AsTask());

        Assert.Equal(TranscoderErrorKind.OtherContract, ex.Kind);
    }

    [Fact]
    public void AddHybridCacheTranscoder_BeforeAddHybridCache_ThrowsNamingTheOrder()
    {
        var services = new ServiceCollection();

        InvalidOperationException ex = Assert.Throws<InvalidOperationException>(() => services.AddHybridCacheTranscoder(new ProtobufTranscoder()));

        Assert.StartsWith("AddHybridCacheTranscoder found no HybridCache to wrap: call services.AddHybridCache() before AddHybridCacheTranscoder()", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AddHybridCacheTranscoder_CalledTwiceAndKeyed_WrapsEachHybridCacheOnce()
    {
        var services = new ServiceCollection();
        services.AddMemcached(o => o.Servers.Add(_server.Endpoint));
        services.AddHybridCache();
        services.AddKeyedHybridCache("orders");
        services.AddHybridCacheTranscoder();
        services.AddHybridCacheTranscoder();
        await using ServiceProvider provider = services.BuildServiceProvider();

        MissOnUnreadableHybridCache plain = Assert.IsType<MissOnUnreadableHybridCache>(provider.GetRequiredService<HybridCache>());
        MissOnUnreadableHybridCache keyed = Assert.IsType<MissOnUnreadableHybridCache>(provider.GetRequiredKeyedService<HybridCache>("orders"));

        Assert.IsNotType<MissOnUnreadableHybridCache>(plain.Inner);
        Assert.IsNotType<MissOnUnreadableHybridCache>(keyed.Inner);
    }

    public static TheoryData<string> UnreadableScenarios => [.. DeployBuilds.Scenarios];

    [Fact]
    public async Task GetOrCreate_SubtypeStoredAsItsBase_ComesBackTheSubtypeFromL2InAFreshProvider()
    {
        SharedFolder tree = Samples.Tree();
        await using (ServiceProvider writer = Provider())
        {
            await writer.GetRequiredService<HybridCache>().GetOrCreateAsync<Item>("hybrid:tree", _ => ValueTask.FromResult<Item>(tree));
            await UntilInL2Async(writer, "hybrid:tree");
        }

        await using ServiceProvider reader = Provider(); // an empty L1: the value can only come from memcached
        Item read = await reader.GetRequiredService<HybridCache>().GetOrCreateAsync<Item>(
            "hybrid:tree", _ => throw new InvalidOperationException("the factory ran: L2 missed"));

        SharedFolder folder = Assert.IsType<SharedFolder>(read);
        Assert.Equal(tree, folder);
        Assert.Equal(new Version(1, 2, 3), folder.Version);
    }

    [Fact]
    public async Task GetOrCreate_WithoutTheTranscoder_SystemTextJsonLosesTheSubtype()
    {
        // What issue 19 found: HybridCache's default serializer returns the base type with the subtype's members dropped.
        await using (ServiceProvider writer = Provider(transcoder: false))
        {
            await writer.GetRequiredService<HybridCache>().GetOrCreateAsync<Item>("hybrid:json", _ => ValueTask.FromResult<Item>(Samples.Tree()));
            await UntilInL2Async(writer, "hybrid:json");
        }

        await using ServiceProvider reader = Provider(transcoder: false);
        Item read = await reader.GetRequiredService<HybridCache>().GetOrCreateAsync<Item>("hybrid:json", _ => throw new InvalidOperationException("L2 missed"));

        Assert.Equal(typeof(Item), read.GetType());
    }

    [Fact]
    public async Task GetOrCreateAndRemove_ServerDown_FactoryValueAndNoException()
    {
        await using ServiceProvider provider = Provider(server: $"127.0.0.1:{MemcachedServer.FreePort()}");
        HybridCache cache = provider.GetRequiredService<HybridCache>();

        Item read = await cache.GetOrCreateAsync<Item>("hybrid:down", _ => ValueTask.FromResult(new Item { Name = "from the database" }));
        await cache.SetAsync("hybrid:down2", new Item { Name = "x" });
        await cache.RemoveAsync("hybrid:down");

        Assert.Equal("from the database", read.Name);
    }

    [Fact]
    public void Serialize_ValueThenDeserialize_FlagsHeaderThenTheTranscodersItem()
    {
        var transcoder = new ProtobufTranscoder();
        var serializer = new TranscoderHybridCacheSerializer<object>(transcoder);
        var buffer = new ArrayBufferWriter<byte>();

        serializer.Serialize(42, buffer);
        object read = serializer.Deserialize(new ReadOnlySequence<byte>(buffer.WrittenMemory));

        CacheItem item = transcoder.Serialize(42);
        Assert.Equal([.. BitConverter.GetBytes(item.Flags), .. item.Data], buffer.WrittenSpan.ToArray());
        Assert.Equal(42, read);
    }

    [Fact]
    public void Deserialize_ShorterThanTheHeader_ThrowsTranscoderException()
    {
        var serializer = new TranscoderHybridCacheSerializer<string>(new ProtobufTranscoder());

        TranscoderException ex = Assert.Throws<TranscoderException>(() => serializer.Deserialize(new ReadOnlySequence<byte>([1, 2])));

        Assert.StartsWith("A HybridCache entry of 2 bytes is shorter than the 4-byte flags header", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddHybridCacheTranscoder_NullArguments_Throw()
    {
        Assert.Throws<ArgumentNullException>(() => ((IServiceCollection)null!).AddHybridCacheTranscoder());
        Assert.Throws<ArgumentNullException>(() => new ServiceCollection().AddHybridCacheTranscoder(null!));
    }

    /// <summary>An order HybridCache treats as immutable (sealed, <see cref="ImmutableObjectAttribute"/>): no defensive copies.</summary>
    [ImmutableObject(true)]
    [ProtoBuf.ProtoContract]
    public sealed class FrozenOrder
    {
        [ProtoBuf.ProtoMember(1)]
        public string? Name { get; init; }
    }

    /// <summary>Serializers that throw on every read, as a serializer of an unreadable entry does (and write one byte).</summary>
    private sealed class ThrowingSerializerFactory : IHybridCacheSerializerFactory
    {
        public bool TryCreateSerializer<T>([NotNullWhen(true)] out IHybridCacheSerializer<T>? serializer)
        {
            serializer = new Serializer<T>();
            return true;
        }

        private sealed class Serializer<T> : IHybridCacheSerializer<T>
        {
            public T Deserialize(ReadOnlySequence<byte> source) => throw new InvalidDataException("unreadable");

            public void Serialize(T value, IBufferWriter<byte> target) => target.Write<byte>([0]);
        }
    }

    /// <summary>Serializers that write one given item, whatever the value, in the format of the package's serializer.</summary>
    private sealed class FixedEntrySerializerFactory(CacheItem item) : IHybridCacheSerializerFactory
    {
        public bool TryCreateSerializer<T>([NotNullWhen(true)] out IHybridCacheSerializer<T>? serializer)
        {
            serializer = new Serializer<T>(item);
            return true;
        }

        private sealed class Serializer<T>(CacheItem item) : IHybridCacheSerializer<T>
        {
            public T Deserialize(ReadOnlySequence<byte> source) => throw new NotSupportedException();

            public void Serialize(T value, IBufferWriter<byte> target)
            {
                BinaryPrimitives.WriteUInt32LittleEndian(target.GetSpan(4), item.Flags);
                target.Advance(4);
                target.Write(item.Data.AsSpan());
            }
        }
    }
}
