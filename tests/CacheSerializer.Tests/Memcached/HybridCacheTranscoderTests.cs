using System.Buffers;
using CacheSerializer.Memcached.Internal;
using CacheSerializer.Tests.Transcoding.Contracts;
using CacheSerializer.Workloads.Servers;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary>HybridCache with memcached as its L2 (through our <c>IDistributedCache</c>) and the transcoder as its serializer.</summary>
public sealed class HybridCacheTranscoderTests : IDisposable
{
    private readonly MemcachedServer _server = MemcachedServer.Start();

    public void Dispose() => _server.Dispose();

    private ServiceProvider Provider(bool transcoder = true, string? server = null)
    {
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Servers.Add(server ?? _server.Endpoint);
            o.ConnectTimeout = TimeSpan.FromSeconds(1);
        });
        services.AddHybridCache();
        if (transcoder)
        {
            services.AddHybridCacheTranscoder();
        }

        return services.BuildServiceProvider();
    }

    [Fact]
    public async Task GetOrCreate_SubtypeStoredAsItsBase_ComesBackTheSubtypeFromL2InAFreshProvider()
    {
        SharedFolder tree = Samples.Tree();
        await using (ServiceProvider writer = Provider())
        {
            await writer.GetRequiredService<HybridCache>().GetOrCreateAsync<Item>("hybrid:tree", _ => ValueTask.FromResult<Item>(tree));
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

        var ex = Assert.Throws<TranscoderException>(() => serializer.Deserialize(new ReadOnlySequence<byte>([1, 2])));

        Assert.StartsWith("A HybridCache entry of 2 bytes is shorter than the 4-byte flags header", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddHybridCacheTranscoder_NullArguments_Throw()
    {
        Assert.Throws<ArgumentNullException>(() => ((IServiceCollection)null!).AddHybridCacheTranscoder());
        Assert.Throws<ArgumentNullException>(() => new ServiceCollection().AddHybridCacheTranscoder(null!));
    }
}
