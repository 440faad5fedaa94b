using System.Text;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Several clusters in one application (issue 38 item 5): named clients from <c>AddKeyedMemcached</c>, each on
/// its own real memcached server, checked against each server's own <c>stats</c>; the unnamed client beside them; a
/// second registration of one client refused; start-up and the health check covering each client.</summary>
/// <remarks>EnyimMemcachedCore's second cluster is <c>AddEnyimMemcached&lt;T&gt;(configuration, sectionKey)</c> resolved
/// as <c>IMemcachedClient&lt;T&gt;</c>, where <c>T</c> only tells the registrations apart (src/Enyim.Caching/IMemcachedClientT.cs,
/// MemcachedClientT.cs and EnyimMemcachedServiceCollectionExtensions.cs in cnblogs/EnyimMemcachedCore at e383c4c):
/// here the name does that.</remarks>
public sealed class MemcachedKeyedClientTests
{
    private static IConfiguration Json(string json) =>
        new ConfigurationBuilder().AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes(json))).Build();

    /// <summary>The items one server holds, from its own <c>stats</c>, read by a client of that server alone.</summary>
    private static async Task<string> CurrItemsAsync(MemcachedServer server)
    {
        await using var raw = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        return (await raw.GetStatsAsync())[server.Endpoint]["curr_items"];
    }

    /// <summary>Three clusters of one real server each: the unnamed client's and the named clients "sessions" and "reports".</summary>
    private sealed class ThreeClusters : IDisposable
    {
        public MemcachedServer Default { get; } = MemcachedServer.Start();

        public MemcachedServer Sessions { get; } = MemcachedServer.Start();

        public MemcachedServer Reports { get; } = MemcachedServer.Start();

        /// <summary>Registers the three clients, <paramref name="reports"/> adding to the reports client's options.</summary>
        public IServiceCollection Register(IServiceCollection services, Action<MemcachedClientOptions>? reports = null)
        {
            services.AddMemcached(o => o.Servers.Add(Default.Endpoint));
            services.AddKeyedMemcached("sessions", o => o.Servers.Add(Sessions.Endpoint));
            services.AddKeyedMemcached("reports", o =>
            {
                o.Servers.Add(Reports.Endpoint);
                reports?.Invoke(o);
            });
            return services;
        }

        public void Dispose()
        {
            Default.Dispose();
            Sessions.Dispose();
            Reports.Dispose();
        }
    }

    [Fact]
    public async Task AddKeyedMemcached_TwoClustersOnTwoServers_OneInstancePerNameEachStoringOnlyOnItsOwnServerAndTheDefaultUnaffected()
    {
        using var clusters = new ThreeClusters();
        await using ServiceProvider provider = clusters.Register(new ServiceCollection()).BuildServiceProvider();
        MemcachedClient sessions = provider.GetRequiredKeyedService<MemcachedClient>("sessions");
        MemcachedClient reports = provider.GetRequiredKeyedService<MemcachedClient>("reports");
        MemcachedClient unnamed = provider.GetRequiredService<MemcachedClient>();

        for (int i = 0; i < 10; i++)
        {
            Assert.Equal(MemcachedStoreResult.Stored, await sessions.SetAsync($"session:{i}", i));
        }

        for (int i = 0; i < 4; i++)
        {
            Assert.Equal(MemcachedStoreResult.Stored, await reports.SetAsync($"report:{i}", i));
        }

        Assert.Equal(MemcachedStoreResult.Stored, await unnamed.SetAsync("default:0", 0));

        Assert.Equal(("10", "4", "1"), (await CurrItemsAsync(clusters.Sessions), await CurrItemsAsync(clusters.Reports), await CurrItemsAsync(clusters.Default)));
        Assert.Equal([clusters.Sessions.Endpoint], sessions.Servers);
        Assert.Equal([clusters.Reports.Endpoint], reports.Servers);
        Assert.Equal([clusters.Default.Endpoint], unnamed.Servers);
        Assert.False((await reports.GetAsync<int>("session:3")).Found);
        Assert.Equal(3, (await sessions.GetAsync<int>("session:3")).Value);

        Assert.Same(sessions, provider.GetRequiredKeyedService<IMemcachedClient>("sessions"));
        Assert.Same(sessions, provider.GetRequiredKeyedService<MemcachedClient>("sessions"));
        Assert.Same(reports, provider.GetRequiredKeyedService<IMemcachedClient>("reports"));
        Assert.Same(unnamed, provider.GetRequiredService<IMemcachedClient>());
        Assert.NotSame(sessions.Engine, reports.Engine);
        Assert.NotSame(sessions.Engine, unnamed.Engine);
        Assert.Null(provider.GetKeyedService<MemcachedClient>("orders"));
    }

    [Fact]
    public async Task AddKeyedMemcached_OwnOptionsPerName_EachClientRunsWithItsOwn()
    {
        using var server = MemcachedServer.Start();
        var services = new ServiceCollection();
        services.AddMemcached(o => { o.Servers.Add(server.Endpoint); o.KeyPrefix = "app:"; });
        services.AddKeyedMemcached("reports", o => { o.Servers.Add(server.Endpoint); o.KeyPrefix = "rep:"; o.MaxValueSize = 1000; });
        await using ServiceProvider provider = services.BuildServiceProvider();
        IOptionsMonitor<MemcachedClientOptions> options = provider.GetRequiredService<IOptionsMonitor<MemcachedClientOptions>>();
        MemcachedClient reports = provider.GetRequiredKeyedService<MemcachedClient>("reports");

        await reports.SetAsync("k", "v");
        await using var raw = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });

        Assert.Equal(("app:", "rep:", 1000), (options.Get(Options.DefaultName).KeyPrefix, options.Get("reports").KeyPrefix, options.Get("reports").MaxValueSize));
        Assert.Equal("v", (await raw.GetAsync<string>("rep:k")).Value);
        Assert.Throws<TranscoderException>(() => reports.Transcoder.Serialize(new byte[1001]));
        Assert.Equal(1001, provider.GetRequiredService<MemcachedClient>().Transcoder.Serialize(new byte[1001]).Data.Count); // the unnamed client keeps the 1 MiB default
    }

    [Fact]
    public async Task AddKeyedMemcached_NamedSections_BindThroughTheSamePathAsTheUnnamedOne()
    {
        using var server = MemcachedServer.Start();
        string port = server.Endpoint[(server.Endpoint.LastIndexOf(':') + 1)..];
        IConfiguration configuration = Json($$"""
            {
              "Reports": { "Servers": [ "{{server.Endpoint}}" ], "ProtobufTranscoder": { "Compression": "Brotli", "CompressStringsAndBytes": true } },
              "PostbodyMemcached": { "Servers": [ { "Address": "127.0.0.1", "Port": {{port}} } ] }
            }
            """);
        var services = new ServiceCollection();
        services.AddKeyedMemcached("reports", configuration.GetSection("Reports"));
        services.AddKeyedMemcached("postbody", configuration.GetSection("PostbodyMemcached"));
        await using ServiceProvider provider = services.BuildServiceProvider();
        IOptionsMonitor<MemcachedClientOptions> options = provider.GetRequiredService<IOptionsMonitor<MemcachedClientOptions>>();

        MemcachedClient reports = provider.GetRequiredKeyedService<MemcachedClient>("reports");
        MemcachedClient postbody = provider.GetRequiredKeyedService<MemcachedClient>("postbody");

        // The package's shape with its transcoder subsection; EnyimMemcachedCore's shape, placed and written as it does.
        Assert.Equal(0x0112u | 0x0080u, reports.Transcoder.Serialize(string.Concat(Enumerable.Repeat("compressible ", 200))).Flags);
        Assert.Equal((KeyPlacement.Ketama, KeyPlacement.EnyimMemcachedCore), (options.Get("reports").KeyPlacement, options.Get("postbody").KeyPlacement));
        Assert.Equal([server.Endpoint], postbody.Servers);
        Assert.Equal(0x0101u, postbody.Transcoder.Serialize(new PostBody { Text = "body" }).Flags);
    }

    [Fact]
    public void AddKeyedMemcached_NamedSectionWithUnknownKeyAndInvalidValue_ResolvingNamesTheClientAndEachPath()
    {
        IConfiguration configuration = Json("""{ "Reports": { "Servers": [ "127.0.0.1:11211" ], "OperationTimout": "00:00:05", "ConnectTimeout": "00:00:00" } }""");
        using ServiceProvider provider = new ServiceCollection().AddKeyedMemcached("reports", configuration.GetSection("Reports")).BuildServiceProvider();

        OptionsValidationException ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredKeyedService<IMemcachedClient>("reports"));

        Assert.Equal("reports", ex.OptionsName);
        Assert.Equal(
            [
                "memcached client 'reports': Reports:OperationTimout: is not a setting of MemcachedClientOptions, so its value would be ignored; the settings are listed in docs/client.md, \"Options\".",
                "memcached client 'reports': MemcachedClientOptions.ConnectTimeout is 00:00:00; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02).",
            ],
            ex.Failures);
    }

    [Fact]
    public void AddMemcached_CalledTwiceWithoutAName_ThrowsNamingBothRegistrationsAndTheFix()
    {
        IConfiguration configuration = Json("""{ "Memcached": { "Servers": [ "127.0.0.1:11211" ] } }""");
        var services = new ServiceCollection();
        services.AddMemcached(configuration.GetSection("Memcached"));
        int registered = services.Count;

        InvalidOperationException ex = Assert.Throws<InvalidOperationException>(() => services.AddMemcached(o => o.Servers.Add("127.0.0.1:11212")));

        Assert.Equal(
            "AddMemcached was called twice: the memcached client is already registered from configuration section 'Memcached', and this call (from an Action<MemcachedClientOptions>) "
            + "would add its servers to the same client's ring, so keys would move between the two clusters. Register another cluster under a name of its own "
            + "(services.AddKeyedMemcached(\"<name>\", ...), resolved as [FromKeyedServices(\"<name>\")] IMemcachedClient); to change the registered client's settings, "
            + "call services.Configure<MemcachedClientOptions>(...).",
            ex.Message);
        Assert.Equal(registered, services.Count); // nothing of the refused call was registered
    }

    [Fact]
    public void AddKeyedMemcached_CalledTwiceWithOneName_ThrowsNamingBothRegistrationsAndTheFix()
    {
        IConfiguration configuration = Json("""{ "Reports": { "Servers": [ "127.0.0.1:11211" ] } }""");
        var services = new ServiceCollection();
        services.AddKeyedMemcached("reports", o => o.Servers.Add("127.0.0.1:11212"));
        services.AddMemcached(configuration.GetSection("Reports")); // the unnamed client is another client

        InvalidOperationException ex = Assert.Throws<InvalidOperationException>(() => services.AddKeyedMemcached("reports", configuration.GetSection("Reports")));

        Assert.Equal(
            "AddKeyedMemcached was called twice with the name 'reports': the memcached client 'reports' is already registered from an Action<MemcachedClientOptions>, and this call "
            + "(from configuration section 'Reports') would add its servers to the same client's ring, so keys would move between the two clusters. Register another cluster "
            + "under another name; to change the registered client's settings, call services.Configure<MemcachedClientOptions>(\"reports\", ...).",
            ex.Message);
    }

    [Fact]
    public async Task AddKeyedMemcached_WithoutAskingForItsCache_LeavesTheApplicationsDistributedCacheAsItIs()
    {
        using var server = MemcachedServer.Start();
        var services = new ServiceCollection();
        services.AddDistributedMemoryCacheStandIn();
        ServiceDescriptor before = Assert.Single(services, d => d.ServiceType == typeof(IDistributedCache));
        services.AddKeyedMemcached("reports", o => o.Servers.Add(server.Endpoint));
        await using ServiceProvider provider = services.BuildServiceProvider();

        Assert.Same(before, Assert.Single(services, d => d.ServiceType == typeof(IDistributedCache)));
        Assert.Null(provider.GetKeyedService<IDistributedCache>("reports"));
    }

    [Fact]
    public async Task AddKeyedMemcachedDistributedCache_NamedClient_KeyedCacheStoresOnItsServerBesideTheDefaultOne()
    {
        using var clusters = new ThreeClusters();
        await using ServiceProvider provider = clusters.Register(new ServiceCollection()).AddKeyedMemcachedDistributedCache("sessions").BuildServiceProvider();
        IDistributedCache sessions = provider.GetRequiredKeyedService<IDistributedCache>("sessions");
        IDistributedCache unnamed = provider.GetRequiredService<IDistributedCache>();

        await sessions.SetAsync("cart", [1, 2, 3], new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(20) });
        await unnamed.SetAsync("page", [9], new DistributedCacheEntryOptions());

        Assert.NotSame(sessions, unnamed);
        Assert.Equal([1, 2, 3], await sessions.GetAsync("cart"));
        Assert.Null(await unnamed.GetAsync("cart"));
        Assert.Equal(("1", "1", "0"), (await CurrItemsAsync(clusters.Sessions), await CurrItemsAsync(clusters.Default), await CurrItemsAsync(clusters.Reports)));
        Assert.Null(provider.GetKeyedService<IDistributedCache>("reports"));
    }

    [Fact]
    public void AddKeyedMemcachedDistributedCache_NoClientOfThatName_ThrowsSayingWhatToCallFirst()
    {
        InvalidOperationException ex = Assert.Throws<InvalidOperationException>(() => new ServiceCollection().AddKeyedMemcachedDistributedCache("sessions"));

        Assert.Equal("AddKeyedMemcachedDistributedCache(\"sessions\") found no memcached client named 'sessions': call services.AddKeyedMemcached(\"sessions\", ...) before it.", ex.Message);
    }

    [Fact]
    public async Task StartAsync_DefaultAndTwoNamedClients_BuildsEachAtStartInRegistrationOrder()
    {
        using var a = MemcachedServer.Start();
        using var b = MemcachedServer.Start();
        using var c = MemcachedServer.Start();
        var logs = new ListLoggerProvider();
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Logging.AddProvider(logs).SetMinimumLevel(LogLevel.Information);
        builder.Services.AddKeyedMemcached("sessions", o => o.Servers.Add(a.Endpoint));
        builder.Services.AddMemcached(o => o.Servers.Add(b.Endpoint));
        builder.Services.AddKeyedMemcached("reports", o => o.Servers.Add(c.Endpoint));
        using IHost host = builder.Build();

        await host.StartAsync();
        await host.StopAsync();

        Assert.Equal(
            [$"Servers = [{a.Endpoint}]", $"Servers = [{b.Endpoint}]", $"Servers = [{c.Endpoint}]"],
            logs.Entries.Where(e => e.Message.StartsWith("memcached client: 1 servers; ", StringComparison.Ordinal))
                .Select(e => e.Message.Split("; ")[1].Split(", ")[0]));
    }

    [Fact]
    public async Task StartAsync_NamedClientWithInvalidOption_FailsNamingTheClientAndTheSetting()
    {
        using var server = MemcachedServer.Start();
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Memcached:Servers:0"] = server.Endpoint,
            ["Reports:Servers:0"] = server.Endpoint,
            ["Reports:OperationTimeout"] = "00:00:00",
            ["Reports:ProtobufTranscoder:CompressionThreshold"] = "-1",
        });
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
        builder.Services.AddKeyedMemcached("reports", builder.Configuration.GetSection("Reports"));
        using IHost host = builder.Build();

        OptionsValidationException ex = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal("reports", ex.OptionsName);
        Assert.Equal(
            [
                "memcached client 'reports': Reports:ProtobufTranscoder:CompressionThreshold: must be 0 or more, not -1.",
                "memcached client 'reports': MemcachedClientOptions.OperationTimeout is 00:00:00; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02).",
            ],
            ex.Failures);
    }

    [Fact]
    public async Task StartAsync_NamedClientsServerRefusesItsCredentials_StopsTheStart()
    {
        using var open = MemcachedServer.Start(); // started without -Y: it refuses a client that authenticates
        using var unnamedServer = MemcachedServer.Start();
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Services.AddMemcached(o => o.Servers.Add(unnamedServer.Endpoint));
        builder.Services.AddKeyedMemcached("reports", o =>
        {
            o.Servers.Add(open.Endpoint);
            o.UserName = "app";
            o.Password = "n0t-The-Real-0ne";
        });
        using IHost host = builder.Build();

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => host.StartAsync());

        Assert.Equal((MemcachedErrorKind.AuthenticationNotEnabled, open.Endpoint, "noop"), (ex.Kind, ex.Server, ex.Operation));
    }

    [Fact]
    public async Task CheckHealth_DefaultAndTwoNamedClientsOneClusterKilled_EachRegistrationReportsItsOwnCluster()
    {
        using var clusters = new ThreeClusters();
        IServiceCollection services = clusters.Register(new ServiceCollection().AddLogging(), reports: o =>
        {
            o.ConnectTimeout = TimeSpan.FromSeconds(1);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        services.AddHealthChecks()
            .AddMemcached()
            .AddKeyedMemcached("sessions", tags: ["ready"])
            .AddKeyedMemcached("reports", failureStatus: HealthStatus.Degraded)
            .AddKeyedMemcached("orders");
        await using ServiceProvider provider = services.BuildServiceProvider();
        HealthCheckService health = provider.GetRequiredService<HealthCheckService>();

        clusters.Reports.Kill();
        HealthReport report = await health.CheckHealthAsync();

        Assert.Equal(["memcached", "memcached:sessions", "memcached:reports", "memcached:orders"], report.Entries.Keys);
        Assert.Equal((HealthStatus.Healthy, "all 1 memcached servers are up"), (report.Entries["memcached"].Status, report.Entries["memcached"].Description));
        Assert.Equal((HealthStatus.Healthy, "memcached client 'sessions': all 1 memcached servers are up"), (report.Entries["memcached:sessions"].Status, report.Entries["memcached:sessions"].Description));
        Assert.Equal(["ready"], report.Entries["memcached:sessions"].Tags);
        Assert.Equal([clusters.Sessions.Endpoint], report.Entries["memcached:sessions"].Data.Keys);
        Assert.Equal(
            (HealthStatus.Degraded, $"memcached client 'reports': 0 of 1 memcached servers are up; down: {clusters.Reports.Endpoint}"),
            (report.Entries["memcached:reports"].Status, report.Entries["memcached:reports"].Description));
        Assert.Equal(HealthStatus.Unhealthy, report.Entries["memcached:orders"].Status);
        Assert.Equal("No memcached client named 'orders' is registered: call services.AddKeyedMemcached(\"orders\", ...).", report.Entries["memcached:orders"].Exception?.Message);
    }

    [Fact]
    public void AddKeyedMemcached_NullOrEmptyArguments_Throw()
    {
        var services = new ServiceCollection();
        IConfiguration configuration = Json("{}");

        Assert.Throws<ArgumentNullException>(() => ((IServiceCollection)null!).AddKeyedMemcached("a", _ => { }));
        Assert.Throws<ArgumentNullException>(() => services.AddKeyedMemcached(null!, _ => { }));
        Assert.Throws<ArgumentException>(() => services.AddKeyedMemcached("", _ => { }));
        Assert.Throws<ArgumentException>(() => services.AddKeyedMemcached(" ", configuration));
        Assert.Throws<ArgumentNullException>(() => services.AddKeyedMemcached("a", (Action<MemcachedClientOptions>)null!));
        Assert.Throws<ArgumentNullException>(() => services.AddKeyedMemcached("a", (IConfiguration)null!));
        Assert.Throws<ArgumentException>(() => services.AddKeyedMemcachedDistributedCache(""));
        Assert.Throws<ArgumentException>(() => services.AddHealthChecks().AddKeyedMemcached(""));
        Assert.DoesNotContain(services, d => d.ServiceType == typeof(MemcachedClient));
    }

    /// <summary>EnyimMemcachedCore's sample caches a post's body in its second cluster.</summary>
    public sealed class PostBody
    {
        public string? Text { get; set; }
    }
}
