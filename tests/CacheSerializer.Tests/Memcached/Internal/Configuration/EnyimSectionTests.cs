using System.Security.Authentication;
using System.Text;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached.Internal.Configuration;

/// <summary>
/// An EnyimMemcachedCore <c>"enyimMemcached"</c> section bound as it is by <c>AddMemcached</c>. Its shape is that of
/// EnyimMemcachedCore's <c>MemcachedClientOptions</c>, <c>Server</c>, <c>SocketPoolOptions</c> and <c>Authentication</c>
/// (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientOptions.cs),
/// and its type names are read as its MemcachedClientConfiguration reads them (Type.GetType of the full name).
/// </summary>
public sealed class EnyimSectionTests
{
    private const string Servers = """
        "Servers": [
          { "Address": "10.0.0.1", "Port": 11211 },
          { "Address": "cache-2.internal", "Port": 11212 },
          { "Address": "fd00::3", "Port": 11213 }
        ]
        """;

    [Fact]
    public void AddMemcached_EnyimSection_BindsServersEnyimPlacementAndMigrationPhase()
    {
        MemcachedClientOptions options = Bind($$"""{ {{Servers}} }""");

        Assert.Equal(["10.0.0.1:11211", "cache-2.internal:11212", "[fd00::3]:11213"], options.Servers);
        Assert.Equal(KeyPlacement.EnyimMemcachedCore, options.KeyPlacement);
        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Equal(ServerFailurePolicy.Miss, options.OnServerFailure); // SuppressException's default, true
        CacheItem item = Assert.IsType<ProtobufTranscoder>(options.Transcoder).Serialize(new Order { Id = 7 });
        Assert.Equal(0x0101u, item.Flags);
    }

    [Fact]
    public void AddMemcached_EnyimSectionWithSecondStep_WritesProtobuf()
    {
        MemcachedClientOptions options = Bind($$"""{ {{Servers}}, "ProtobufTranscoder": { "ObjectFormat": "Protobuf" } }""");

        CacheItem item = Assert.IsType<ProtobufTranscoder>(options.Transcoder).Serialize(new Order { Id = 7 });

        Assert.Equal(0xC541u, item.Flags & ~0x80u);
        Assert.Equal(KeyPlacement.EnyimMemcachedCore, options.KeyPlacement);
    }

    [Fact]
    public void AddMemcached_EnyimSettings_MapToTheirCounterparts()
    {
        MemcachedClientOptions options = Bind($$"""
            {
              {{Servers}},
              "UseLegacyNodeLocator": true,
              "SuppressException": false,
              "UseSslStream": true,
              "UseIPv6": true,
              "Protocol": "Text",
              "KeyTransformer": "Enyim.Caching.Memcached.SHA1KeyTransformer",
              "Transcoder": "DefaultTranscoder",
              "SslClientAuth": { "TargetHost": "cache.internal", "EnabledSslProtocols": "Tls13" },
              "SocketPool": {
                "MinPoolSize": 5, "MaxPoolSize": 100,
                "ConnectionTimeout": "00:00:03", "ReceiveTimeout": "00:00:04", "DeadTimeout": "00:00:05",
                "QueueTimeout": "00:00:00.100", "ConnectionIdleTimeout": "00:00:00", "InitPoolTimeout": "00:01:00"
              }
            }
            """);

        Assert.Equal(KeyPlacement.EnyimMemcachedCoreLegacy, options.KeyPlacement);
        Assert.Equal(ServerFailurePolicy.Throw, options.OnServerFailure);
        Assert.True(options.Tls.Enabled);
        Assert.Equal("cache.internal", options.Tls.TargetHost);
        Assert.Equal(SslProtocols.Tls13, options.Tls.EnabledProtocols);
        Assert.Equal(MemcachedKeyTransformer.Sha1, options.KeyTransformer);
        Assert.Equal(
            (TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(4), TimeSpan.FromSeconds(5)),
            (options.ConnectTimeout, options.OperationTimeout, options.ServerDownInterval));

        // The settings with no counterpart (UseIPv6, Protocol, the pool's sizes and its other timeouts) change nothing:
        // every other option is as a section of the servers alone binds it (MaxPoolSize 100 is not 100 connections).
        MemcachedClientOptions plain = Bind($$"""{ {{Servers}} }""");
        Assert.Equal(
            (plain.ConnectionsPerServer, plain.MaxInFlightPerConnection, plain.MaxValueSize, plain.KeyPrefix, plain.OnUnreadableItem, plain.DeleteUnreadableItems, plain.AutoEject, plain.FlushOnReturn),
            (options.ConnectionsPerServer, options.MaxInFlightPerConnection, options.MaxValueSize, options.KeyPrefix, options.OnUnreadableItem, options.DeleteUnreadableItems, options.AutoEject, options.FlushOnReturn));
        Assert.Equal(plain.Servers, options.Servers);

        // "Transcoder": "DefaultTranscoder" is the migration phase's transcoder: objects written as DefaultTranscoder writes them.
        Assert.Equal(0x0101u, Assert.IsType<ProtobufTranscoder>(options.Transcoder).Serialize(new Order { Id = 7 }).Flags);
    }

    [Fact]
    public void AddMemcached_OwnSettingsBesideEnyimOnes_WinOverTheMapping()
    {
        MemcachedClientOptions options = Bind($$"""
            { {{Servers}}, "UseLegacyNodeLocator": true, "KeyPlacement": "Ketama", "SuppressException": false, "OnServerFailure": "Miss", "KeyPrefix": "app:" }
            """);

        Assert.Equal((KeyPlacement.Ketama, ServerFailurePolicy.Miss, "app:"), (options.KeyPlacement, options.OnServerFailure, options.KeyPrefix));
    }

    [Theory]
    [InlineData("""{ "Authentication": { "Type": "Enyim.Caching.Memcached.PlainTextAuthenticator", "Parameters": { "zone": "", "userName": "u", "password": "p" } } }""", "enyimMemcached:Authentication", "SASL")]
    [InlineData("""{ "Transcoder": "BinaryFormatterTranscoder" }""", "enyimMemcached:Transcoder", "List every cached object type (with the types of its fields) in enyimMemcached:ProtobufTranscoder:BinaryFormatterFallbackTypes")]
    [InlineData("""{ "Transcoder": "Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder" }""", "enyimMemcached:Transcoder", "Add the compatibility package, CacheSerializer.Enyim, and register the client with services.AddEnyimMemcached(...)")]
    [InlineData("""{ "Transcoder": "MessagePackTranscoder" }""", "enyimMemcached:Transcoder", "Add the compatibility package, CacheSerializer.Enyim, and register the client with services.AddEnyimMemcached(...)")]
    [InlineData("""{ "Transcoder": "MyApp.Caching.GzipTranscoder, MyApp" }""", "enyimMemcached:Transcoder", "is an application's own transcoder")]
    [InlineData("""{ "Protocol": "Udp" }""", "enyimMemcached:Protocol", "not an EnyimMemcachedCore protocol")]
    [InlineData("""{ "SocketPool": { "ReceiveTimeout": "soon" } }""", "enyimMemcached:SocketPool:ReceiveTimeout", "not a duration")]
    [InlineData("""{ "SocketPool": { "FailurePolicyFactory": { "x": 1 } } }""", "enyimMemcached:SocketPool:FailurePolicyFactory", "not a setting of EnyimMemcachedCore's SocketPool")]
    [InlineData("""{ "SslClientAuth": { "ClientCertificates": [ "a" ] } }""", "enyimMemcached:SslClientAuth:ClientCertificates", "Tls section")]
    [InlineData("""{ "UseSslStream": "yes" }""", "enyimMemcached:UseSslStream", "not true or false")]
    [InlineData("""{ "ReadTimeout": "00:00:01" }""", "enyimMemcached:ReadTimeout", "neither a setting of EnyimMemcachedCore")]
    [InlineData("""{ "NodeLocatorFactory": { "x": 1 } }""", "enyimMemcached:NodeLocatorFactory", "custom node locator")]
    public void AddMemcached_RefusedEnyimSetting_FailsAtStartNamingItAndWhatToDo(string extra, string path, string reason)
    {
        string json = extra.Insert(1, $$""" {{Servers}}, """);

        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => Bind(json));

        string failure = Assert.Single(thrown.Failures);
        Assert.StartsWith(path + ": ", failure, StringComparison.Ordinal);
        Assert.Contains(reason, failure, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_ServerWithoutPort_FailsAtStart()
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => Bind("""{ "Servers": [ { "Address": "10.0.0.2", "Port": 11211 }, { "Address": "10.0.0.1" } ] }"""));

        Assert.Equal("enyimMemcached:Servers:1: Port '' is not a port (1-65535)", Assert.Single(thrown.Failures));
    }

    [Fact]
    public void AddMemcached_AuthenticationRefusal_TellsTheServerSideChange()
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() =>
            Bind($$"""{ {{Servers}}, "Authentication": { "Type": "Enyim.Caching.Memcached.PlainTextAuthenticator" } }"""));

        string failure = Assert.Single(thrown.Failures);
        Assert.Contains("memcached -Y <authfile>", failure, StringComparison.Ordinal);
        Assert.Contains("UserName and Password", failure, StringComparison.Ordinal);
        Assert.Contains("docs/migrating-from-enyim.md", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_OwnShape_IsNotTakenForEnyimShape()
    {
        MemcachedClientOptions options = Bind("""{ "Servers": [ "10.0.0.1:11211" ] }""");

        Assert.Equal(KeyPlacement.Ketama, options.KeyPlacement);
        Assert.Null(options.Transcoder);
    }

    private static MemcachedClientOptions Bind(string sectionJson)
    {
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "enyimMemcached": {{sectionJson}} }""")))
            .Build();
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("enyimMemcached")).BuildServiceProvider();
        return provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;
    }

    [ProtoBuf.ProtoContract]
    public sealed class Order
    {
        [ProtoBuf.ProtoMember(1)]
        public int Id { get; set; }
    }
}
