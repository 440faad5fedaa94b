using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached;

[Collection(MemcachedCollection.Name)]
public sealed class MemcachedServiceCollectionExtensionsTests(MemcachedServerFixture fixture)
{
    private static IConfiguration Json(string json) =>
        new ConfigurationBuilder().AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes(json))).Build();

    [Fact]
    public async Task AddMemcached_FromConfigurationSection_BindsOptionsAndRegistersCache()
    {
        IConfiguration configuration = Json($$"""
            {
              "Memcached": {
                "Servers": [ "{{fixture.Primary.Endpoint}}" ],
                "KeyPrefix": "di:",
                "ConnectionsPerServer": 3,
                "OperationTimeout": "00:00:03"
              }
            }
            """);
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();
        IDistributedCache cache = provider.GetRequiredService<IDistributedCache>();
        await cache.SetAsync("from-config", [7], new DistributedCacheEntryOptions());

        Assert.Equal([fixture.Primary.Endpoint], client.Servers);
        Assert.Same(client, provider.GetRequiredService<MemcachedClient>());
        Assert.Same(client, provider.GetRequiredService<IMemcachedClient>());
        Assert.Equal([7], await cache.GetAsync("from-config"));
        await using var plain = new MemcachedClient(fixture.Options());
        Assert.True(await plain.TouchAsync("di:from-config", TimeSpan.FromMinutes(1))); // stored under the bound prefix
    }

    [Fact]
    public void AddMemcached_UnreadableItemSettings_BindFromConfiguration()
    {
        IConfiguration configuration = Json($$"""
            {
              "Memcached": {
                "Servers": [ "{{fixture.Primary.Endpoint}}" ],
                "OnUnreadableItem": "Throw",
                "DeleteUnreadableItems": true
              }
            }
            """);
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        MemcachedClientOptions options = provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;

        Assert.Equal((UnreadableItemPolicy.Throw, true), (options.OnUnreadableItem, options.DeleteUnreadableItems));
    }

    [Fact]
    public async Task AddMemcached_GetOrCreateSubsection_BindsTheDefaultsEveryCallTakes()
    {
        IConfiguration configuration = Json($$"""
            {
              "Memcached": {
                "Servers": [ "{{fixture.Primary.Endpoint}}" ],
                "GetOrCreate": { "Expiration": "00:00:40", "StaleWhileRevalidate": "00:00:20", "LockTimeout": "00:00:03" }
              }
            }
            """);
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();
        GetOrCreateOptions bound = provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value.GetOrCreate;
        string key = MemcachedServerFixture.UniqueKey("di-defaults");

        await client.GetOrCreateAsync(key, _ => Task.FromResult("v"));
        long storedTtl = (await client.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;
        await client.InvalidateAsync(key);
        long staleTtl = (await client.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl;

        Assert.Equal((TimeSpan.FromSeconds(40), TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(3), null), (bound.Expiration, bound.StaleWhileRevalidate, bound.LockTimeout, bound.EarlyRefresh));
        Assert.InRange(storedTtl, 58, 60); // 40 s fresh + 20 s stale
        Assert.InRange(staleTtl, 18, 20);  // md I T20: the stale window
    }

    [Fact]
    public void AddMemcached_InvalidGetOrCreateDefault_ValidationNamesTheNestedProperty()
    {
        IConfiguration configuration = Json("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "GetOrCreate": { "LockTimeout": "00:00:00" } } }""");
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        OptionsValidationException ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IMemcachedClient>());

        Assert.Equal(["MemcachedClientOptions.GetOrCreate.LockTimeout is 00:00:00; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:10)."], ex.Failures);
    }

    [Fact]
    public async Task AddMemcached_TranscoderSubsection_BindsTheTranscoderOptions()
    {
        IConfiguration configuration = Json($$"""
            {
              "Memcached": {
                "Servers": [ "{{fixture.Primary.Endpoint}}" ],
                "ProtobufTranscoder": { "Compression": "Brotli", "CompressionThreshold": 64, "CompressStringsAndBytes": true }
              }
            }
            """);
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();
        string text = string.Concat(Enumerable.Repeat("compressible ", 20));

        CacheItem item = client.Transcoder.Serialize(text);
        await client.SetAsync(MemcachedServerFixture.UniqueKey("di-compressed"), text);

        Assert.IsType<ProtobufTranscoder>(client.Transcoder);
        Assert.Equal(0x0112u | 0x0080u, item.Flags);
    }

    [Fact]
    public async Task AddMemcached_NoTranscoderSubsection_UsesTheDefaultTranscoderWithTheClientsValueLimit()
    {
        IConfiguration configuration = Json($$"""
            { "Memcached": { "Servers": [ "{{fixture.Primary.Endpoint}}" ], "MaxValueSize": 1000 } }
            """);
        await using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();
        MemcachedClient client = provider.GetRequiredService<MemcachedClient>();

        TranscoderException ex = Assert.Throws<TranscoderException>(() => client.Transcoder.Serialize(new byte[1001]));

        Assert.Contains("1000 bytes", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_InvalidTranscoderOption_ResolvingNamesItsPathWithTheClientsProblems()
    {
        IConfiguration configuration = Json("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "OperationTimeout": "00:00:00", "ProtobufTranscoder": { "MaxDecompressionRatio": 1, "CompressionThreshold": -1 } } }""");
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        OptionsValidationException ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<MemcachedClient>());

        // Every problem at once, the client's and the transcoder's, each under the setting's name or path.
        Assert.Equal(
            [
                "Memcached:ProtobufTranscoder:CompressionThreshold: must be 0 or more, not -1.",
                "Memcached:ProtobufTranscoder:MaxDecompressionRatio: must be 2-1024, not 1.",
                "MemcachedClientOptions.OperationTimeout is 00:00:00; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02).",
            ],
            ex.Failures);
    }

    [Theory]
    [InlineData("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "Compression": "Lz4" } }""",
        "Memcached:Compression: is not a setting of MemcachedClientOptions, so its value would be ignored; it is a setting of the transcoder: move it into the ProtobufTranscoder subsection (Memcached:ProtobufTranscoder:Compression).")]
    [InlineData("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "OperationTimout": "00:00:05" } }""",
        "Memcached:OperationTimout: is not a setting of MemcachedClientOptions, so its value would be ignored; the settings are listed in docs/client.md, \"Options\".")]
    [InlineData("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "ProtobufTranscoder": { "Compresion": "Lz4" } } }""",
        "Memcached:ProtobufTranscoder:Compresion: is not a setting of ProtobufTranscoderOptions, so its value would be ignored; see ProtobufTranscoderOptions's properties for the settings.")]
    [InlineData("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ], "GetOrCreate": { "Expiry": "00:01:00" } } }""",
        "Memcached:GetOrCreate:Expiry: is not a setting of GetOrCreateOptions, so its value would be ignored; see GetOrCreateOptions's properties for the settings.")]
    public void AddMemcached_KeyThatIsNoSetting_RefusedAtStartNamingItsPath(string json, string problem)
    {
        IConfiguration configuration = Json(json);
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        OptionsValidationException ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<MemcachedClient>());

        Assert.Equal([problem], ex.Failures);
    }

    [Fact]
    public void AddMemcached_SectionWithoutServers_ResolvingNamesTheSettingAndTheFix()
    {
        IConfiguration configuration = Json("""{ "Memcached": { "KeyPrefix": "x" } }""");
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("Memcached")).BuildServiceProvider();

        OptionsValidationException ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IDistributedCache>());

        Assert.Equal(["MemcachedClientOptions.Servers is empty; add at least one server as host:port (for example 127.0.0.1:11211)."], ex.Failures);
    }

    [Fact]
    public async Task AddMemcached_Action_ReplacesAnEarlierDistributedCache()
    {
        var services = new ServiceCollection();
        services.AddDistributedMemoryCacheStandIn();
        services.AddMemcached(o => o.Servers.Add(fixture.Primary.Endpoint));
        await using ServiceProvider provider = services.BuildServiceProvider();

        Assert.Equal("MemcachedDistributedCache", provider.GetRequiredService<IDistributedCache>().GetType().Name);
    }

    [Fact]
    public void AddMemcached_NullArguments_Throw()
    {
        Assert.Throws<ArgumentNullException>(() => ((IServiceCollection)null!).AddMemcached(_ => { }));
        Assert.Throws<ArgumentNullException>(() => new ServiceCollection().AddMemcached((Action<MemcachedClientOptions>)null!));
        Assert.Throws<ArgumentNullException>(() => new ServiceCollection().AddMemcached((IConfiguration)null!));
    }
}

internal static class ServiceCollectionTestExtensions
{
    /// <summary>Registers some other IDistributedCache first, as an app that switches to memcached would have.</summary>
    internal static IServiceCollection AddDistributedMemoryCacheStandIn(this IServiceCollection services) =>
        services.AddSingleton<IDistributedCache>(_ => throw new InvalidOperationException("the earlier cache was resolved"));
}
