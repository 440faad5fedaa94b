using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;

namespace CacheSerializer.Tests.Memcached.Internal.Configuration;

public class ClientSettingsTests
{
    private static MemcachedClientOptions Valid() => new() { Servers = { "127.0.0.1:11211" } };

    [Fact]
    public void Create_NoServers_NamesServers()
    {
        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(new MemcachedClientOptions()));

        Assert.Equal("Servers", ex.PropertyName);
        Assert.Contains("MemcachedClientOptions.Servers", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("127.0.0.1:0")]
    [InlineData("127.0.0.1:70000")]
    [InlineData("127.0.0.1:abc")]
    [InlineData("::1:11211")]
    [InlineData("[::1:11211")]
    [InlineData("host:11211 zero")]
    [InlineData(":11211")]
    [InlineData("bad host:11211")]
    [InlineData("http://host:11211")]
    public void Create_BadServer_NamesServersAndEntry(string server)
    {
        var options = new MemcachedClientOptions { Servers = { server } };

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal("Servers", ex.PropertyName);
    }

    [Fact]
    public void Create_KeyPlacementUndefined_NamesTheOptionAndTheValues()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211" }, KeyPlacement = (KeyPlacement)7 };

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal("MemcachedClientOptions.KeyPlacement is 7; use Ketama, EnyimMemcachedCore or EnyimMemcachedCoreLegacy.", ex.Message);
    }

    [Fact]
    public void Create_DuplicateServer_NamesBothEntriesAndTheFix()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211", "127.0.0.1" } };

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal("MemcachedClientOptions.Servers[1] '127.0.0.1' is the same server as Servers[0] ('127.0.0.1:11211'); remove one of them.", ex.Message);
    }

    public static TheoryData<string[], string> ServerProblems => new()
    {
        { ["http://127.0.0.1:11211"], "MemcachedClientOptions.Servers[0] 'http://127.0.0.1:11211' has a URL scheme; write host:port without 'http://' (for example 127.0.0.1:11211, cache-1:11211 or [::1]:11211)." },
        { ["127.0.0.1:11211", " "], "MemcachedClientOptions.Servers[1] is empty; remove the entry or write host:port (for example 127.0.0.1:11211)." },
        { ["127.0.0.1:70000"], "MemcachedClientOptions.Servers[0] '127.0.0.1:70000' has an invalid port '70000'; use a number from 1 to 65535 (memcached listens on 11211 by default)." },
        { ["127.0.0.1:0"], "MemcachedClientOptions.Servers[0] '127.0.0.1:0' has an invalid port '0'; use a number from 1 to 65535 (memcached listens on 11211 by default)." },
        { ["::1:11211"], "MemcachedClientOptions.Servers[0] '::1:11211' looks like an IPv6 address; write it in brackets, [address]:port (for example [::1]:11211)." },
        { ["host:11211 0"], "MemcachedClientOptions.Servers[0] 'host:11211 0' has a weight '0' that is not a positive integer; write host:port weight (for example 127.0.0.1:11211 2) or leave the weight out." },
        { ["host:11211 zero"], "MemcachedClientOptions.Servers[0] 'host:11211 zero' has 'zero' after the address, which is neither a weight (a positive integer) nor tls, tls=<host name> or notls; write host:port, optionally followed by a weight and a TLS choice (for example 127.0.0.1:11211 2 tls)." },
        { ["host:11211 tls notls"], "MemcachedClientOptions.Servers[0] 'host:11211 tls notls' says tls or notls more than once; keep one of them." },
        { ["host:11211 tls=a/b"], "MemcachedClientOptions.Servers[0] 'host:11211 tls=a/b' has 'tls=a/b', whose name is not a host name or address; write tls=<the name the server's certificate holds> (for example 10.0.0.5:11211 tls=cache-1.internal)." },
        { [":11211"], "MemcachedClientOptions.Servers[0] ':11211' has no host; write host:port (for example 127.0.0.1:11211, cache-1:11211 or [::1]:11211)." },
        { [], "MemcachedClientOptions.Servers is empty; add at least one server as host:port (for example 127.0.0.1:11211)." },
    };

    [Theory]
    [MemberData(nameof(ServerProblems))]
    public void Create_BadServerList_MessageNamesTheEntryAndTheFix(string[] servers, string message)
    {
        var options = new MemcachedClientOptions();
        foreach (string server in servers)
        {
            options.Servers.Add(server);
        }

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal(message, ex.Message);
    }

    [Fact]
    public void Validate_SeveralProblems_ReportsEveryOne()
    {
        var options = new MemcachedClientOptions { Servers = { "http://a:1", "a:1", "a:1" }, ConnectionsPerServer = 0, OperationTimeout = TimeSpan.Zero };

        string[] problems = ClientSettings.Validate(options).Select(p => p.PropertyName).ToArray();

        Assert.Equal(["Servers", "Servers", "ConnectionsPerServer", "OperationTimeout"], problems);
    }

    [Theory]
    [InlineData(nameof(MemcachedClientOptions.ConnectionsPerServer))]
    [InlineData(nameof(MemcachedClientOptions.MaxInFlightPerConnection))]
    [InlineData(nameof(MemcachedClientOptions.ConnectTimeout))]
    [InlineData(nameof(MemcachedClientOptions.OperationTimeout))]
    [InlineData(nameof(MemcachedClientOptions.ServerDownInterval))]
    [InlineData(nameof(MemcachedClientOptions.MaxValueSize))]
    [InlineData(nameof(MemcachedClientOptions.KeyPrefix))]
    public void Create_InvalidValue_NamesTheProperty(string property)
    {
        MemcachedClientOptions options = Valid();
        switch (property)
        {
            case nameof(MemcachedClientOptions.ConnectionsPerServer): options.ConnectionsPerServer = 0; break;
            case nameof(MemcachedClientOptions.MaxInFlightPerConnection): options.MaxInFlightPerConnection = -1; break;
            case nameof(MemcachedClientOptions.ConnectTimeout): options.ConnectTimeout = TimeSpan.Zero; break;
            case nameof(MemcachedClientOptions.OperationTimeout): options.OperationTimeout = TimeSpan.FromSeconds(-1); break;
            case nameof(MemcachedClientOptions.ServerDownInterval): options.ServerDownInterval = TimeSpan.Zero; break;
            case nameof(MemcachedClientOptions.MaxValueSize): options.MaxValueSize = 0; break;
            case nameof(MemcachedClientOptions.KeyPrefix): options.KeyPrefix = null!; break;
        }

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal(property, ex.PropertyName);
        Assert.StartsWith($"MemcachedClientOptions.{property} ", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_IPv6AndWeightAndDefaultPort_Parsed()
    {
        var options = new MemcachedClientOptions { Servers = { "[::1]:11300", "cache.local 300", "10.0.0.1", "app_memcached_1:11212" } };

        IReadOnlyList<ServerEndpoint> servers = ClientSettings.Create(options).Servers;

        Assert.Equal(("::1", 11300, 1), (servers[0].Host, servers[0].Port, servers[0].Weight));
        Assert.Equal(("cache.local", 11211, 300), (servers[1].Host, servers[1].Port, servers[1].Weight));
        Assert.Equal("[::1]:11300", servers[0].Name);
        Assert.Equal("10.0.0.1:11211", servers[2].Name);
        Assert.Equal("app_memcached_1:11212", servers[3].Name);
    }

    [Fact]
    public void Create_NoTranscoder_UsesPackageDefault()
    {
        Assert.IsType<ProtobufTranscoder>(ClientSettings.Create(Valid()).Transcoder);
    }
}
