using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached.Internal.Configuration;

/// <summary>The TLS and authentication options: server entries, validation messages (never quoting a password),
/// certificate loading, binding from configuration, and <c>ToString</c>.</summary>
public sealed class SecuritySettingsTests(CertificatesFixture fixture) : IClassFixture<CertificatesFixture>
{
    private static MemcachedClientOptions Valid(Action<MemcachedClientOptions>? configure = null)
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211" } };
        configure?.Invoke(options);
        return options;
    }

    private static string[] Problems(MemcachedClientOptions options) =>
        [.. ClientSettings.Validate(options).Select(static p => p.Message)];

    [Fact]
    public void Create_ServerEntriesWithTlsChoices_EachServerReachedItsOwnWay()
    {
        MemcachedClientOptions options = Valid(o =>
        {
            o.Servers.Clear();
            o.Servers.Add("cache-1:11211 2 tls");
            o.Servers.Add("10.0.0.5:11211 tls=cache-5.internal");
            o.Servers.Add("127.0.0.1:11212 notls");
            o.Servers.Add("cache-3:11211");
        });
        options.Tls.Enabled = true;

        var settings = ClientSettings.Create(options);

        Assert.Equal(2, settings.Servers[0].Weight);
        Assert.Equal("cache-1", settings.TlsFor(settings.Servers[0])!.TargetHostOf(settings.Servers[0]));
        Assert.Equal("cache-5.internal", settings.TlsFor(settings.Servers[1])!.TargetHostOf(settings.Servers[1]));
        Assert.Null(settings.TlsFor(settings.Servers[2]));
        Assert.Equal("cache-3", settings.TlsFor(settings.Servers[3])!.TargetHostOf(settings.Servers[3]));
        Assert.Equal("10.0.0.5:11211", settings.Servers[1].Name); // the TLS choice is no part of the server's name or its ketama points
    }

    [Fact]
    public void DescribeSecurity_SomeServersTls_SaysWhichAndHowNeverThePassword()
    {
        MemcachedClientOptions options = Valid(o =>
        {
            o.Servers.Add("127.0.0.1:11212 tls");
            o.UserName = "app";
            o.Password = "Pa55-w0rd";
            o.Tls.CaCertificatePath = fixture.Certificates.CaPath;
        });

        (string tls, string authentication) = ClientSettings.Create(options).DescribeSecurity();

        Assert.Equal($"on for 1 of 2 servers (127.0.0.1:11212; TLS 1.2 or 1.3, server certificates validated against 1 CA certificates from {fixture.Certificates.CaPath} only, each server's host checked)", tls);
        Assert.Equal("as user 'app'", authentication);
    }

    public static TheoryData<string?, string?, string> CredentialProblems => new()
    {
        { "app", null, "MemcachedClientOptions.Password is empty while UserName is set ('app'); set both (memcached -Y authenticates a user:password pair), or neither." },
        { null, "Pa55-w0rd", "MemcachedClientOptions.UserName is empty while Password is set; set both (memcached -Y authenticates a user:password pair), or neither." },
        { "app:1", "Pa55-w0rd", "MemcachedClientOptions.UserName 'app:1' has a space, a control character or ':'; memcached's auth file separates user and password with ':' and its command with a space." },
        { "app", "Pa55 w0rd", "MemcachedClientOptions.Password has a space or a control character (not shown); memcached's authentication command separates user and password with a space, so such a password can never match." },
        { "app", new string('p', 248), "MemcachedClientOptions.Password and UserName are 251 bytes together; memcached reads auth file lines of at most 255 bytes, so keep them under 250." },
    };

    [Theory]
    [MemberData(nameof(CredentialProblems))]
    public void Validate_BadCredentials_NamesThePropertyNeverQuotingThePassword(string? user, string? password, string message)
    {
        string[] problems = Problems(Valid(o =>
        {
            o.UserName = user;
            o.Password = password;
        }));

        Assert.Equal([message], problems);
    }

    [Fact]
    public void Validate_TlsSettingsWrong_EachProblemNamesItsProperty()
    {
        string missing = Path.Combine(fixture.Certificates.Directory, "missing.pem");
        string notPem = Path.Combine(fixture.Certificates.Directory, "not-a-certificate.pem");
        File.WriteAllText(notPem, "hello");
        MemcachedClientOptions options = Valid(o =>
        {
            o.Tls.EnabledProtocols = SslProtocols.Tls12 | (SslProtocols)0x300; // and TLS 1.1 (obsolete, hence the number)
            o.Tls.TargetHost = "cache host";
            o.Tls.CaCertificatePath = notPem;
            o.Tls.ClientKeyPath = missing;
        });

        string[] problems = Problems(options);

        Assert.Equal(
        [
            "MemcachedClientOptions.Tls.EnabledProtocols is Tls11, Tls12; use Tls12, Tls13 or both (older versions are refused).",
            "MemcachedClientOptions.Tls.TargetHost 'cache host' is not a host name or address; write the name the servers' certificates hold, or leave it empty.",
            $"MemcachedClientOptions.Tls.CaCertificatePath '{notPem}' holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the PEM file of the CA that issued the servers' certificates.",
            "MemcachedClientOptions.Tls.ClientKeyPath is set without Tls.ClientCertificatePath; set both, or neither.",
        ],
            problems);
    }

    [Fact]
    public void Validate_CaFileMissing_NamesThePathAndTheFix()
    {
        string missing = Path.Combine(fixture.Certificates.Directory, "missing.pem");

        string problem = Assert.Single(Problems(Valid(o => o.Tls.CaCertificatePath = missing)));

        Assert.StartsWith($"MemcachedClientOptions.Tls.CaCertificatePath '{missing}' could not be read (", problem, StringComparison.Ordinal);
        Assert.EndsWith("); give the PEM file of the CA that issued the servers' certificates.", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ClientCertificateWithoutKey_Refused()
    {
        string problem = Assert.Single(Problems(Valid(o => o.Tls.ClientCertificatePath = fixture.Certificates.Client.CertificatePath)));

        Assert.StartsWith($"MemcachedClientOptions.Tls.ClientCertificatePath '{fixture.Certificates.Client.CertificatePath}' could not be loaded (", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_ClientCertificateAsPkcs12WithPassword_LoadsIt_WrongPasswordNeverQuoted()
    {
        using var pem = X509Certificate2.CreateFromPemFile(fixture.Certificates.Client.CertificatePath, fixture.Certificates.Client.KeyPath);
        string pfx = Path.Combine(fixture.Certificates.Directory, "client.pfx");
        File.WriteAllBytes(pfx, pem.Export(X509ContentType.Pkcs12, "Pfx-Pa55"));

        TlsSettings loaded = ClientSettings.Create(Valid(o =>
        {
            o.Tls.ClientCertificatePath = pfx;
            o.Tls.ClientCertificatePassword = "Pfx-Pa55";
        })).TlsFor(new ServerEndpoint("127.0.0.1", 11211, 1, tls: true))!;
        string problem = Assert.Single(Problems(Valid(o =>
        {
            o.Tls.ClientCertificatePath = pfx;
            o.Tls.ClientCertificatePassword = "Wr0ng-Pfx-Pa55";
        })));

        Assert.Equal("CN=cacheserializer test client", loaded.ClientCertificate!.Subject);
        Assert.True(loaded.ClientCertificate.HasPrivateKey);
        Assert.StartsWith($"MemcachedClientOptions.Tls.ClientCertificatePath '{pfx}' could not be loaded (", problem, StringComparison.Ordinal);
        Assert.DoesNotContain("Wr0ng-Pfx-Pa55", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_TlsAndCredentialsFromConfiguration_Bound()
    {
        IConfiguration configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Memcached:Servers:0"] = "cache-1:11211",
            ["Memcached:Servers:1"] = "127.0.0.1:11212 notls",
            ["Memcached:UserName"] = "app",
            ["Memcached:Password"] = "Pa55-w0rd",
            ["Memcached:Tls:Enabled"] = "true",
            ["Memcached:Tls:TargetHost"] = "cache.internal",
            ["Memcached:Tls:CaCertificatePath"] = fixture.Certificates.CaPath,
            ["Memcached:Tls:ClientCertificatePath"] = fixture.Certificates.Client.CertificatePath,
            ["Memcached:Tls:ClientKeyPath"] = fixture.Certificates.Client.KeyPath,
            ["Memcached:Tls:EnabledProtocols"] = "Tls13",
        }).Build();
        var services = new ServiceCollection();
        services.AddMemcached(configuration.GetSection("Memcached"));
        using ServiceProvider provider = services.BuildServiceProvider();

        MemcachedClientOptions options = provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;
        var settings = ClientSettings.Create(options);

        Assert.Equal(("app", "Pa55-w0rd"), (options.UserName, options.Password));
        Assert.True(options.Tls.Enabled);
        Assert.Equal(SslProtocols.Tls13, options.Tls.EnabledProtocols);
        Assert.Equal("cache.internal", settings.TlsFor(settings.Servers[0])!.TargetHostOf(settings.Servers[0]));
        Assert.Equal("CN=cacheserializer test client", settings.TlsFor(settings.Servers[0])!.ClientCertificate!.Subject);
        Assert.Null(settings.TlsFor(settings.Servers[1]));
    }

    [Fact]
    public void AddMemcached_AppsettingsOfClientMd_EachServerItsOwnTlsAndThePasswordFromASecretSource()
    {
        // The appsettings.json example of docs/client.md ("TLS and authentication"), bound as it is written, with the
        // password layered over it as a secret source would (and the CA file, which must exist, replaced by this test's):
        // the documentation cannot drift from the binding.
        string doc = File.ReadAllText(PackageMetadataTests.RepositoryFile("docs/client.md"));
        int section = doc.IndexOf("## TLS and authentication", StringComparison.Ordinal);
        int start = doc.IndexOf("```json", section, StringComparison.Ordinal) + "```json".Length;
        string json = "{" + doc[start..doc.IndexOf("```", start, StringComparison.Ordinal)] + "}";
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(System.Text.Encoding.UTF8.GetBytes(json)))
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Memcached:Password"] = "Pa55-w0rd",
                ["Memcached:Tls:CaCertificatePath"] = fixture.Certificates.CaPath,
            })
            .Build();
        var services = new ServiceCollection();
        services.AddMemcached(configuration.GetSection("Memcached"));
        using ServiceProvider provider = services.BuildServiceProvider();

        MemcachedClientOptions options = provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;
        var settings = ClientSettings.Create(options);

        Assert.Equal(("app", "Pa55-w0rd", true), (options.UserName, options.Password, options.Tls.Enabled));
        Assert.Equal(
            [("cache-1.internal:11211", "cache-1.internal"), ("10.0.0.5:11211", "cache-5.internal"), ("127.0.0.1:11211", null)],
            settings.Servers.Select(s => (s.Name, settings.TlsFor(s)?.TargetHostOf(s))));
    }

    [Fact]
    public void ToString_PasswordsSet_ShowsEverySettingButThem()
    {
        MemcachedClientOptions options = Valid(o =>
        {
            o.UserName = "app";
            o.Password = "Pa55-w0rd";
            o.Tls.Enabled = true;
            o.Tls.ClientCertificatePath = "/etc/memcached/client.pfx";
            o.Tls.ClientCertificatePassword = "Pfx-Pa55";
            o.GetOrCreate.LockTimeout = TimeSpan.FromSeconds(30);
            o.GetOrCreate.EarlyRefresh = 0.1;
        });

        string text = options.ToString();

        Assert.Equal(
            "MemcachedClientOptions { Servers = [127.0.0.1:11211], ConnectionsPerServer = 1, MaxInFlightPerConnection = 2048, ConnectTimeout = 00:00:02, OperationTimeout = 00:00:02, ServerDownInterval = 00:00:02, KeyPrefix = '', MaxValueSize = 1048576, OnServerFailure = Miss, OnUnreadableItem = Miss, DeleteUnreadableItems = False, KeyPlacement = Ketama, KeyTransformer = None, AutoEject = False, FlushOnReturn = True, "
            + "GetOrCreate = { Expiration = (default), EarlyRefresh = 0.1, StaleWhileRevalidate = (default), LockTimeout = 00:00:30 }, "
            + "Tls = { Enabled = True, TargetHost = (each server's host), CaCertificatePath = (none), CaCertificates = 0, ClientCertificatePath = /etc/memcached/client.pfx, ClientKeyPath = (none), ClientCertificatePassword = (hidden), ClientCertificate = (none), EnabledProtocols = Tls12, Tls13, DangerousAcceptAnyServerCertificate = False }, "
            + "UserName = app, Password = (hidden), Transcoder = (default) }",
            text);
    }
}
