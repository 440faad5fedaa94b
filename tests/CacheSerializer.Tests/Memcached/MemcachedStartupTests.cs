using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached;

/// <summary>A generic host with <c>AddMemcached</c>: misconfiguration stops the start, naming each setting and its fix;
/// a valid configuration logs the client's settings once at start-up.</summary>
public sealed class MemcachedStartupTests
{
    private static HostApplicationBuilder Builder(Dictionary<string, string?> settings, ListLoggerProvider? logs = null)
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
        if (logs is not null)
        {
            builder.Logging.AddProvider(logs).SetMinimumLevel(LogLevel.Information);
        }

        return builder;
    }

    [Fact]
    public async Task StartAsync_MisconfiguredServers_FailsListingEverySettingAndItsFix()
    {
        using IHost host = Builder(new()
        {
            ["Memcached:Servers:0"] = "http://127.0.0.1:11211",
            ["Memcached:Servers:1"] = "",
            ["Memcached:Servers:2"] = "cache-1:99999",
            ["Memcached:Servers:3"] = "cache-2:11211",
            ["Memcached:Servers:4"] = "CACHE-2",
            ["Memcached:OperationTimeout"] = "00:00:00",
        }).Build();

        OptionsValidationException ex = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal(
        [
            "MemcachedClientOptions.Servers[0] 'http://127.0.0.1:11211' has a URL scheme; write host:port without 'http://' (for example 127.0.0.1:11211, cache-1:11211 or [::1]:11211).",
            "MemcachedClientOptions.Servers[1] is empty; remove the entry or write host:port (for example 127.0.0.1:11211).",
            "MemcachedClientOptions.Servers[2] 'cache-1:99999' has an invalid port '99999'; use a number from 1 to 65535 (memcached listens on 11211 by default).",
            "MemcachedClientOptions.Servers[4] 'CACHE-2' is the same server as Servers[3] ('cache-2:11211'); remove one of them.",
            "MemcachedClientOptions.OperationTimeout is 00:00:00; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02).",
        ],
            ex.Failures);
    }

    [Fact]
    public async Task StartAsync_ValidConfiguration_LogsTheServersAndTranscoderSettingsOnce()
    {
        using var server = MemcachedServer.Start();
        var logs = new ListLoggerProvider();
        using IHost host = Builder(
            new()
            {
                ["Memcached:Servers:0"] = server.Endpoint,
                ["Memcached:KeyPrefix"] = "app:",
                ["Memcached:ProtobufTranscoder:Compression"] = "Brotli",
            },
            logs).Build();

        await host.StartAsync();
        _ = host.Services.GetRequiredService<IMemcachedClient>();
        await host.StopAsync();

        string started = Assert.Single(logs.Entries, e => e.Message.StartsWith("memcached client: ", StringComparison.Ordinal)).Message;
        Assert.Equal(
            $"memcached client: 1 servers; Servers = [{server.Endpoint}], ConnectionsPerServer = 1, MaxInFlightPerConnection = 2048, ConnectTimeout = 00:00:02, OperationTimeout = 00:00:02, ServerDownInterval = 00:00:02, KeyPrefix = 'app:', MaxValueSize = 1048576, OnServerFailure = Miss, OnUnreadableItem = Miss, DeleteUnreadableItems = False, KeyPlacement = Ketama, KeyTransformer = None, AutoEject = False, FlushOnReturn = True, "
            + "GetOrCreate = { Expiration = (default), EarlyRefresh = (default), StaleWhileRevalidate = (default), LockTimeout = (default) }, "
            + "Tls = { Enabled = False, TargetHost = (each server's host), CaCertificatePath = (none), CaCertificates = 0, ClientCertificatePath = (none), ClientKeyPath = (none), ClientCertificatePassword = (none), ClientCertificate = (none), EnabledProtocols = Tls12, Tls13, DangerousAcceptAnyServerCertificate = False }, "
            + "UserName = (none), Password = (none), Transcoder = ProtobufTranscoder; TLS off, authentication off; "
            + "transcoder ProtobufTranscoder (objects as Protobuf, compression Brotli from 1024 bytes at level Fastest, objects only, MaxValueSize 1048576 bytes, 0 type aliases, 0 known types, 0 codecs, BinaryFormatter fallback for 0 types)",
            started);
    }

    [Fact]
    public async Task StartAsync_ServerNotRunning_StartsAnyway()
    {
        // A cache outage at start-up is an outage, not a failed deployment: the host starts and calls miss.
        using IHost host = Builder(new() { ["Memcached:Servers:0"] = $"127.0.0.1:{MemcachedServer.FreePort()}" }).Build();

        await host.StartAsync();
        MemcachedGetResult<string> read = await host.Services.GetRequiredService<IMemcachedClient>().GetAsync<string>("k");
        await host.StopAsync();

        Assert.False(read.Found);
    }
}
