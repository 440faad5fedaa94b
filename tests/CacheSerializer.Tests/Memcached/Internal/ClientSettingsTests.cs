using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal;

namespace CacheSerializer.Tests.Memcached.Internal;

public class ClientSettingsTests
{
    private static MemcachedClientOptions Valid() => new() { Servers = { "127.0.0.1:11211" } };

    [Fact]
    public void Create_NoServers_NamesServers()
    {
        var ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(new MemcachedClientOptions()));

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

        var ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal("Servers", ex.PropertyName);
    }

    [Fact]
    public void Create_DuplicateServer_NamesServers()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211", "127.0.0.1" } };

        var ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Contains("listed twice", ex.Message, StringComparison.Ordinal);
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

        var ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

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
