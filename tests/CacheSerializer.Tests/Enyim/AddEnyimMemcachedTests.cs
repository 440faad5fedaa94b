using System.Net.Security;
using System.Security.Authentication;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Tests.Memcached.Internal.Routing;
using CacheSerializer.Tests.Transcoding;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using EnyimOptions = CacheSerializer.Enyim.MemcachedClientOptions;

namespace CacheSerializer.Tests.Enyim;

/// <summary>
/// The compatibility package's <c>AddEnyimMemcached</c> overloads, in EnyimMemcachedCore's shapes (cnblogs/EnyimMemcachedCore
/// at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/EnyimMemcachedServiceCollectionExtensions.cs): a
/// code-configured application (<c>AddEnyimMemcached(o =&gt; o.AddServer(...))</c>) reaches the same placement, formats
/// and refusals as the section one, since its options are mapped by the section's own rules.
/// </summary>
public class AddEnyimMemcachedTests
{
    private const string SectionServers = """ "Servers": [ { "Address": "127.0.0.1", "Port": 21001 }, { "Address": "127.0.0.1", "Port": 21002 }, { "Address": "localhost", "Port": 21003 } ] """;

    private static readonly string[] Keys = [.. EnyimPlacementVectors.Keys.Select(static k => k.Key).Distinct(), .. Enumerable.Range(0, 200).Select(static i => $"k:{i}")];

    public static TheoryData<string, Action<EnyimOptions>> SameSettings => new()
    {
        { "", static _ => { } },
        { """, "UseLegacyNodeLocator": true""", static o => o.UseLegacyNodeLocator = true },
        { """, "Transcoder": "MessagePackTranscoder" """, static o => o.Transcoder = "MessagePackTranscoder" },
        { """, "KeyTransformer": "Enyim.Caching.Memcached.SHA1KeyTransformer" """, static o => o.KeyTransformer = "Enyim.Caching.Memcached.SHA1KeyTransformer" },
        { """, "Transcoder": "MessagePackTranscoder", "ProtobufTranscoder": { "ObjectFormat": "Protobuf" } """, static o => (o.Transcoder, o.ObjectFormat) = ("MessagePackTranscoder", TranscoderObjectFormat.Protobuf) },
    };

    [Theory]
    [MemberData(nameof(SameSettings))]
    public void AddEnyimMemcached_CodeConfigured_PlacesKeysOnTheSameServersAsTheSection(string sectionExtra, Action<EnyimOptions> codeExtra)
    {
        using ServiceProvider section = new ServiceCollection().AddEnyimMemcached(EnyimSections.Configuration($$"""{ {{SectionServers}} {{sectionExtra}} }""")).BuildServiceProvider();
        using ServiceProvider code = new ServiceCollection().AddEnyimMemcached(o => CodeServers(o, codeExtra)).BuildServiceProvider();

        Assert.Equal(Placement(section.GetRequiredService<MemcachedEngine>()), Placement(code.GetRequiredService<MemcachedEngine>()));
        Assert.Equal(
            section.GetRequiredService<IOptions<MemcachedClientOptions>>().Value.KeyPlacement,
            code.GetRequiredService<IOptions<MemcachedClientOptions>>().Value.KeyPlacement);
    }

    [Theory]
    [MemberData(nameof(SameSettings))]
    public void AddEnyimMemcached_CodeConfigured_WritesTheSameBytesAsTheSection(string sectionExtra, Action<EnyimOptions> codeExtra)
    {
        ITranscoder section = EnyimSections.Transcoder($$"""{ {{SectionServers}} {{sectionExtra}} }""");
        ITranscoder code = EnyimSections.Options(services => services.AddEnyimMemcached(o => CodeServers(o, codeExtra))).Transcoder!;
        object[] values = [new MessagePackTranscoderTests.Line { Sku = "a", Quantity = 2, Price = 1.5m }, "text", 42L, new byte[] { 9, 8 }, new DateTime(2024, 1, 2, 0, 0, 0, DateTimeKind.Utc)];

        foreach (object value in values)
        {
            CacheItem fromSection = section.Serialize(value);
            CacheItem fromCode = code.Serialize(value);
            Assert.Equal(fromSection.Flags, fromCode.Flags);
            Assert.Equal(fromSection.Bytes(), fromCode.Bytes());
        }
    }

    [Fact]
    public void AddEnyimMemcached_CodeConfiguredPlacement_IsEnyimMemcachedCoresOwn()
    {
        // The vectors' list of three addresses, as EnyimMemcachedCore hashes them; only loopback addresses are used here,
        // so the vectors' servers are compared through the locator they pin, fed the code-configured client's endpoints.
        MemcachedClientOptions options = EnyimSections.Options(services => services.AddEnyimMemcached(o => CodeServers(o, static _ => { })));

        Assert.Equal(KeyPlacement.EnyimMemcachedCore, options.KeyPlacement);
        Assert.Equal(["127.0.0.1:21001", "127.0.0.1:21002", "localhost:21003"], options.Servers);
    }

    [Fact]
    public void AddEnyimMemcached_CodeConfiguredSocketPool_MapsAsTheSectionDoes()
    {
        MemcachedClientOptions options = EnyimSections.Options(services => services.AddEnyimMemcached(o =>
        {
            o.AddServer("127.0.0.1", 21001);
            o.SocketPool = new() { ConnectionTimeout = TimeSpan.FromSeconds(5), ReceiveTimeout = TimeSpan.FromSeconds(3), DeadTimeout = TimeSpan.FromSeconds(7), MaxPoolSize = 20 };
            o.SuppressException = false;
            o.UseSslStream = true;
            o.SslClientAuth = new SslClientAuthenticationOptions { TargetHost = "cache.internal", EnabledSslProtocols = SslProtocols.Tls13 };
        }));

        Assert.Equal(
            (TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(7), ServerFailurePolicy.Throw, true, "cache.internal", SslProtocols.Tls13),
            (options.ConnectTimeout, options.OperationTimeout, options.ServerDownInterval, options.OnServerFailure, options.Tls.Enabled, options.Tls.TargetHost, options.Tls.EnabledProtocols));
    }

    [Fact]
    public void AddEnyimMemcached_CodeConfiguredAuthentication_IsRefusedAsInTheSection()
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => EnyimSections.Options(services => services.AddEnyimMemcached(o =>
        {
            o.AddServer("127.0.0.1", 21001);
            o.AddPlainTextAuthenticator(string.Empty, "user", "secret");
        })));

        string failure = Assert.Single(thrown.Failures);
        Assert.StartsWith("MemcachedClientOptions:Authentication: EnyimMemcachedCore authenticates with SASL over memcached's binary protocol", failure, StringComparison.Ordinal);
        Assert.DoesNotContain("secret", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void AddEnyimMemcached_CodeConfiguredUnmappedTlsMember_IsRefusedAsInTheSection()
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => EnyimSections.Options(services => services.AddEnyimMemcached(o =>
        {
            o.AddServer("127.0.0.1", 21001);
            o.SslClientAuth = new SslClientAuthenticationOptions { RemoteCertificateValidationCallback = static (_, _, _, _) => true };
        })));

        Assert.Equal(
            "MemcachedClientOptions:SslClientAuth:RemoteCertificateValidationCallback: has no counterpart here; set the package's Tls section instead "
            + "(CaCertificatePath, ClientCertificatePath, ClientKeyPath, EnabledProtocols, TargetHost)",
            Assert.Single(thrown.Failures));
    }

    [Fact]
    public void AddEnyimMemcached_SectionKeyFromTheApplicationsConfiguration_BindsThatSection()
    {
        IConfiguration configuration = EnyimSections.Configuration($$"""{ {{SectionServers}}, "UseLegacyNodeLocator": true }""", "cache");

        MemcachedClientOptions options = EnyimSections.Options(services => services.AddSingleton(configuration).AddEnyimMemcached("cache"));

        Assert.Equal((KeyPlacement.EnyimMemcachedCoreLegacy, 3), (options.KeyPlacement, options.Servers.Count));
    }

    [Fact]
    public void AddEnyimMemcached_NotAsDistributedCache_LeavesIDistributedCacheUnregistered()
    {
        IServiceCollection services = new ServiceCollection().AddEnyimMemcached(o => o.AddServer("127.0.0.1", 21001), asDistributedCache: false);

        Assert.DoesNotContain(services, static d => d.ServiceType == typeof(IDistributedCache));
        Assert.Contains(services, static d => d.ServiceType == typeof(MemcachedClient));
    }

    [Fact]
    public void AddEnyimMemcachedOfT_Section_RegistersAKeyedClientOfItsOwnServersAndNoDistributedCache()
    {
        IConfiguration configuration = EnyimSections.Configuration($$"""{ "Servers": [ { "Address": "127.0.0.1", "Port": 21009 } ] }""", "postbodyMemcached");
        IServiceCollection services = new ServiceCollection()
            .AddEnyimMemcached(EnyimSections.Configuration($$"""{ {{SectionServers}} }"""))
            .AddEnyimMemcached<MessagePackTranscoderTests.Basket>(configuration, "postbodyMemcached");
        using ServiceProvider provider = services.BuildServiceProvider();
        string name = EnyimServiceCollectionExtensions.ClientName<MessagePackTranscoderTests.Basket>();

        MemcachedClientOptions keyed = provider.GetRequiredService<IOptionsMonitor<MemcachedClientOptions>>().Get(name);

        Assert.Equal("EnyimMemcached<CacheSerializer.Tests.Enyim.MessagePackTranscoderTests+Basket>", name);
        Assert.Equal(["127.0.0.1:21009"], keyed.Servers);
        Assert.Equal(KeyPlacement.EnyimMemcachedCore, keyed.KeyPlacement);
        Assert.NotNull(provider.GetRequiredKeyedService<MemcachedClient>(name));
        Assert.Single(services, static d => d.ServiceType == typeof(IDistributedCache));
        Assert.DoesNotContain(services, static d => d.IsKeyedService && d.ServiceType == typeof(IDistributedCache));
    }

    [Fact]
    public void AddEnyimMemcached_Twice_IsRefusedNamingBothSources()
    {
        IServiceCollection services = new ServiceCollection().AddEnyimMemcached(o => o.AddServer("127.0.0.1", 21001));

        InvalidOperationException thrown = Assert.Throws<InvalidOperationException>(() => services.AddEnyimMemcached(EnyimSections.Configuration($$"""{ {{SectionServers}} }""")));

        Assert.StartsWith(
            "AddMemcached was called twice: the memcached client is already registered from an Action<MemcachedClientOptions> (EnyimMemcachedCore's shape), "
            + "and this call (from configuration section 'enyimMemcached')",
            thrown.Message,
            StringComparison.Ordinal);
    }

    private static void CodeServers(EnyimOptions options, Action<EnyimOptions> extra)
    {
        options.AddServer("127.0.0.1", 21001);
        options.Servers.Add(new CacheSerializer.Enyim.Server { Address = "127.0.0.1", Port = 21002 });
        options.AddServer("localhost", 21003);
        extra(options);
    }

    private static string[] Placement(MemcachedEngine engine) => [.. Keys.Select(key => engine.Locate(engine.Key(key)).Endpoint.ToString())];
}
