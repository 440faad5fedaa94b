using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Migrate;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Generation;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

/// <summary>A new web server's client, bound from its configuration section: from EnyimMemcachedCore's section, keys
/// placed as EnyimMemcachedCore places them and objects written as its DefaultTranscoder writes them (protobuf once the
/// second step's setting is added); from this package's own section, ketama and protobuf. No server is contacted.</summary>
public sealed class MigrationClientsTests
{
    private static readonly string[] Endpoints = ["127.0.0.1:21001", "127.0.0.1:21002", "127.0.0.1:21003"];

    private static readonly string[] Keys = [.. Enumerable.Range(0, 200).Select(k => $"migrate:user:{k}")];

    [Fact]
    public void EnyimSection_EnyimMemcachedCoreShape_AddressAndPortPerServer()
    {
        IConfigurationSection section = MigrationClients.EnyimSection(Endpoints, secondStep: false);

        Assert.Equal("enyimMemcached", section.Key);
        Assert.Equal(
            [("127.0.0.1", "21001"), ("127.0.0.1", "21002"), ("127.0.0.1", "21003")],
            section.GetSection("Servers").GetChildren().Select(s => (s["Address"], s["Port"])));
        Assert.Null(section["ProtobufTranscoder:ObjectFormat"]);
        Assert.Equal("Protobuf", MigrationClients.EnyimSection(Endpoints, secondStep: true)["ProtobufTranscoder:ObjectFormat"]);
    }

    [Fact]
    public async Task FromSection_EnyimSection_EnyimMemcachedCorePlacementAndBsonObjects()
    {
        await using ServiceProvider services = MigrationClients.FromSection(MigrationClients.EnyimSection(Endpoints, secondStep: false), inner => inner);
        MemcachedClient client = services.GetRequiredService<MemcachedClient>();

        Assert.Equal(Placement(KeyPlacement.EnyimMemcachedCore), Keys.Select(client.GetServerForKey));
        Assert.Equal(0x0101u, client.Transcoder.Serialize(WorkloadFactory.LargeObject(10)).Flags);
    }

    [Fact]
    public async Task FromSection_EnyimSection_WritesTheOldServersBytes()
    {
        await using ServiceProvider services = MigrationClients.FromSection(MigrationClients.EnyimSection(Endpoints, secondStep: false), inner => inner);
        var store = new VersionedStore(keys: 3, entries: 10, seed: 20261127);

        for (int k = 0; k < 3; k++)
        {
            CacheItem old = new EnyimBsonTranscoder().Serialize(store.Read(k).Value);
            CacheItem migration = services.GetRequiredService<MemcachedClient>().Transcoder.Serialize(store.Read(k).Value);
            Assert.Equal(old.Flags, migration.Flags);
            Assert.Equal(old.Data.ToArray(), migration.Data.ToArray());
        }
    }

    [Fact]
    public async Task FromSection_SecondStepSection_EnyimMemcachedCorePlacementAndProtobufObjects()
    {
        await using ServiceProvider services = MigrationClients.FromSection(MigrationClients.EnyimSection(Endpoints, secondStep: true), inner => inner);
        MemcachedClient client = services.GetRequiredService<MemcachedClient>();

        Assert.Equal(Placement(KeyPlacement.EnyimMemcachedCore), Keys.Select(client.GetServerForKey));
        Assert.Equal(new ProtobufTranscoder().Serialize(WorkloadFactory.LargeObject(10)).Flags, client.Transcoder.Serialize(WorkloadFactory.LargeObject(10)).Flags);
    }

    [Fact]
    public async Task FromSection_OwnSection_KetamaPlacementAndProtobufObjects()
    {
        await using ServiceProvider services = MigrationClients.FromSection(MigrationClients.OwnSection(Endpoints), inner => inner);
        MemcachedClient client = services.GetRequiredService<MemcachedClient>();

        Assert.Equal(Placement(KeyPlacement.Ketama), Keys.Select(client.GetServerForKey));
        Assert.NotEqual(Placement(KeyPlacement.EnyimMemcachedCore), Placement(KeyPlacement.Ketama));
        Assert.Equal(new ProtobufTranscoder().Serialize(WorkloadFactory.LargeObject(10)).Flags, client.Transcoder.Serialize(WorkloadFactory.LargeObject(10)).Flags);
    }

    [Fact]
    public async Task FromSection_WrapTranscoder_TheClientUsesTheWrapper()
    {
        CheckingTranscoder? wrapper = null;
        await using ServiceProvider services = MigrationClients.FromSection(MigrationClients.OwnSection(Endpoints), inner => wrapper = new CheckingTranscoder(inner));

        ITranscoder used = services.GetRequiredService<MemcachedClient>().Transcoder;

        Assert.Same(wrapper, used);
        Assert.IsType<ProtobufTranscoder>(wrapper!.Inner);
    }

    private static string[] Placement(KeyPlacement placement)
    {
        var options = new MemcachedClientOptions { KeyPlacement = placement };
        foreach (string endpoint in Endpoints)
        {
            options.Servers.Add(endpoint);
        }

        using var client = new MemcachedClient(options);
        return [.. Keys.Select(client.GetServerForKey)];
    }
}
