using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>memcached's ASCII authentication against real servers started with <c>-Y authfile</c> (and without it): the
/// authenticated round trip, and each misconfiguration with its own error kind, surfaced at start-up and by the health check.</summary>
public sealed class MemcachedClientAuthenticationTests(CertificatesFixture fixture) : IClassFixture<CertificatesFixture>
{
    private const string User = "app";
    private const string Password = "n0t-The-Real-0ne";
    private static readonly KeyValuePair<string, string> AppUser = new(User, Password);

    private static MemcachedClientOptions Options(MemcachedServer server, string? user = User, string? password = Password, ServerFailurePolicy policy = ServerFailurePolicy.Throw) => new()
    {
        Servers = { server.Endpoint },
        ConnectTimeout = TimeSpan.FromSeconds(5),
        OperationTimeout = TimeSpan.FromSeconds(5),
        ServerDownInterval = TimeSpan.FromMinutes(1),
        OnServerFailure = policy,
        UserName = user,
        Password = password,
    };

    [Fact]
    public async Task Authenticated_EveryConnection_RoundTripsAndServerCountsNoError()
    {
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        MemcachedClientOptions options = Options(server);
        options.ConnectionsPerServer = 3;
        await using var client = new MemcachedClient(options);

        await Task.WhenAll(Enumerable.Range(0, 300).Select(i => client.SetAsync($"auth:{i}", i)));
        int[] read = await Task.WhenAll(Enumerable.Range(0, 300).Select(async i => (await client.GetAsync<int>($"auth:{i}")).Value));
        IReadOnlyDictionary<string, string> stats = (await client.GetStatsAsync())[server.Endpoint];

        Assert.Equal(Enumerable.Range(0, 300), read);
        Assert.Equal("0", stats["auth_errors"]);
        Assert.InRange(int.Parse(stats["auth_cmds"], System.Globalization.CultureInfo.InvariantCulture), 1, 3); // one per connection opened
    }

    [Fact]
    public async Task Authenticated_ServerKilledAndRestarted_NewConnectionsAuthenticateAgain()
    {
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        MemcachedClientOptions options = Options(server, policy: ServerFailurePolicy.Miss);
        options.ServerDownInterval = TimeSpan.FromMilliseconds(200);
        await using var client = new MemcachedClient(options);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("auth:k", "before"));

        server.Kill();
        Assert.Equal(MemcachedStoreResult.ServerFailure, await client.SetAsync("auth:k", "during"));
        server.Restart();
        await MemcachedServerFixture.SetUntilStoredAsync(client, "auth:k", "after", "the client authenticates to the restarted server");

        Assert.Equal("after", (await client.GetAsync<string>("auth:k")).Value);
    }

    [Fact]
    public async Task WrongPassword_FailsWithAuthenticationFailedNamingServerAndUserNotThePassword()
    {
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        await using var client = new MemcachedClient(Options(server, password: "Wr0ng-Pa55"));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        MemcachedException again = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync("k", "v"));

        Assert.Equal(MemcachedErrorKind.AuthenticationFailed, ex.Kind);
        Assert.Equal(server.Endpoint, ex.Server);
        Assert.Equal(
            $"get on {server.Endpoint}: the server rejected user 'app' (it answered \"CLIENT_ERROR authentication failure\"); check MemcachedClientOptions.UserName and Password against a user:password line of the server's -Y auth file.",
            ex.Message);
        Assert.Equal(MemcachedErrorKind.AuthenticationFailed, again.Kind); // fast, while the server is marked down, and as clear
        Assert.Equal("set", again.Operation);
        Assert.DoesNotContain("Wr0ng-Pa55", ex.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("Wr0ng-Pa55", again.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task MissingCredentials_ConcurrentCalls_AllFailWithAuthenticationRequiredNotTimeouts()
    {
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        // The operation timeout far above the bound below: a caller left waiting for it (the bug this guards) fails the
        // bound, and a loaded machine's scheduling never comes near it.
        MemcachedClientOptions options = Options(server, user: null, password: null);
        options.OperationTimeout = TimeSpan.FromSeconds(60);
        await using var client = new MemcachedClient(options);

        Task<MemcachedGetResult<string>>[] calls = Enumerable.Range(0, 50).Select(i => client.GetAsync<string>($"k{i}")).ToArray();
        Exception?[] errors = await Task.WhenAll(calls.Select(async c =>
        {
            try
            {
                await c;
                return null;
            }
            catch (Exception ex)
            {
                return ex;
            }
        })).WaitAsync(TimeSpan.FromSeconds(20)); // well inside the 60 s operation timeout

        Assert.All(errors, e => Assert.Equal(MemcachedErrorKind.AuthenticationRequired, Assert.IsType<MemcachedException>(e).Kind));
        Assert.Equal(
            $"get on {server.Endpoint}: the server requires authentication (memcached -Y) and the client has no credentials; set MemcachedClientOptions.UserName and Password.",
            errors[0]!.Message);
    }

    public static TheoryData<int, int> TinyPools => new()
    {
        { 1, 1024 }, // every caller on one connection: many are writing or queued when the refusal breaks it
        { 1, 4 },    // and most of them waiting for one of four pipeline slots
        { 2, 2 },
    };

    [Theory]
    [MemberData(nameof(TinyPools))]
    public async Task MissingCredentials_ManyCallersTinyPool_EveryCallFailsWithAuthenticationRequired(int connections, int maxInFlight)
    {
        // The race of a refused connection: the read thread breaks it on the first "CLIENT_ERROR unauthenticated" while
        // other callers are writing their requests, queued behind the write side, or waiting for a slot. Whichever stage a
        // call is at, it reports the refusal, never ConnectionBroken. Many rounds on fresh clients make every stage likely.
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        for (int round = 0; round < 20; round++)
        {
            MemcachedClientOptions options = Options(server, user: null, password: null);
            options.ConnectionsPerServer = connections;
            options.MaxInFlightPerConnection = maxInFlight;
            await using var client = new MemcachedClient(options);

            Exception?[] errors = await Task.WhenAll(Enumerable.Range(0, 200).Select(async i =>
            {
                try
                {
                    await Task.Yield(); // callers arrive from pool threads, concurrently with the break
                    await client.GetAsync<string>($"race:{round}:{i}");
                    return null;
                }
                catch (Exception ex)
                {
                    return ex;
                }
            }));

            Assert.All(errors, e =>
            {
                MemcachedException error = Assert.IsType<MemcachedException>(e);
                Assert.True(error.Kind == MemcachedErrorKind.AuthenticationRequired, $"round {round}: {error.Kind}: {error.Message}");
                Assert.Equal($"get on {server.Endpoint}: the server requires authentication (memcached -Y) and the client has no credentials; set MemcachedClientOptions.UserName and Password.", error.Message);
            });
        }
    }

    [Fact]
    public async Task CredentialsAgainstServerWithoutY_FailsWithAuthenticationNotEnabled_PasswordNeverSent()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(Options(server));
        await using var open = new MemcachedClient(Options(server, user: null, password: null));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        IReadOnlyDictionary<string, string> stats = (await open.GetStatsAsync())[server.Endpoint];

        Assert.Equal(MemcachedErrorKind.AuthenticationNotEnabled, ex.Kind);
        Assert.Equal(
            $"get on {server.Endpoint}: credentials are configured (user 'app') but the server does not require authentication (it answered without them: memcached without -Y), so anyone can read and write it; the password was not sent. Start memcached with -Y <authfile>, or remove MemcachedClientOptions.UserName and Password.",
            ex.Message);
        Assert.Equal("0", stats["cmd_set"]); // the authentication command would have stored the password as a value
        Assert.Equal("0", stats["curr_items"]);
    }

    [Fact]
    public async Task MissPolicy_WrongPassword_CallsMissLoggedOnceWithTheReasonHealthCheckUnhealthy()
    {
        using var server = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [AppUser] });
        var logs = new ListLoggerProvider();
        var services = new ServiceCollection();
        services.AddLogging(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        services.AddMemcached(o =>
        {
            o.Servers.Add(server.Endpoint);
            o.UserName = User;
            o.Password = "Wr0ng-Pa55";
            o.ServerDownInterval = TimeSpan.FromMinutes(1);
        });
        services.AddHealthChecks().AddMemcached();
        await using ServiceProvider provider = services.BuildServiceProvider();
        IMemcachedClient client = provider.GetRequiredService<IMemcachedClient>();

        MemcachedGetResult<string> read = await client.GetAsync<string>("k");
        MemcachedStoreResult stored = await client.SetAsync("k", "v");
        HealthReport health = await provider.GetRequiredService<HealthCheckService>().CheckHealthAsync();

        Assert.False(read.Found);
        Assert.Equal(MemcachedStoreResult.ServerFailure, stored);
        string reason = $"connect on {server.Endpoint}: the server rejected user 'app' (it answered \"CLIENT_ERROR authentication failure\"); check MemcachedClientOptions.UserName and Password against a user:password line of the server's -Y auth file.";
        Assert.Equal(
            [
                $"memcached client: the password of user 'app' is sent in clear text to {server.Endpoint}, which are reached without TLS; anyone on the network path can read it (set MemcachedClientOptions.Tls.Enabled)",
                $"memcached server {server.Endpoint} is down, probed in 60000 ms and then every 60000 ms; until it is back its calls are misses or fail fast (OnServerFailure): {reason}",
            ],
            logs.Entries.Where(e => e.Level == LogLevel.Warning).Select(e => e.Message));
        HealthReportEntry entry = health.Entries["memcached"];
        Assert.Equal(HealthStatus.Unhealthy, entry.Status);
        Assert.Matches($@"^down for \d+\.\d s, next attempt in \d+ ms: {System.Text.RegularExpressions.Regex.Escape(reason)}$", (string)entry.Data[server.Endpoint]);
    }

    [Fact]
    public async Task TlsAndAuthentication_Together_RoundTrip()
    {
        using MemcachedServer server = fixture.StartTls(users: AppUser);
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o =>
        {
            o.UserName = User;
            o.Password = Password;
        }));

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("k", "secure"));
        Assert.Equal("secure", (await client.GetAsync<string>("k")).Value);
    }

    public static TheoryData<string, string?, MemcachedErrorKind> StartUpRefusals => new()
    {
        { "wrong password", "Wr0ng-Pa55", MemcachedErrorKind.AuthenticationFailed },
        { "no credentials", null, MemcachedErrorKind.AuthenticationRequired },
        { "server without -Y", Password, MemcachedErrorKind.AuthenticationNotEnabled },
        { "untrusted certificate", Password, MemcachedErrorKind.TlsHandshakeFailed },
    };

    [Theory]
    [MemberData(nameof(StartUpRefusals))]
    public async Task StartAsync_ServerRefusesTheConfiguration_StopsTheStartWithThatKind(string scenario, string? password, MemcachedErrorKind expected)
    {
        MemcachedServerSecurity? security = scenario switch
        {
            "server without -Y" => null,
            "untrusted certificate" => new MemcachedServerSecurity { Certificate = fixture.Certificates.Server, Users = [AppUser] },
            _ => new MemcachedServerSecurity { Users = [AppUser] },
        };
        using var server = MemcachedServer.Start(security: security);
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Memcached:Servers:0"] = server.Endpoint,
            ["Memcached:UserName"] = password is null ? null : User,
            ["Memcached:Password"] = password,
            ["Memcached:Tls:Enabled"] = scenario == "untrusted certificate" ? "true" : "false",
            ["Memcached:Tls:CaCertificatePath"] = fixture.Certificates.OtherCaPath,
        });
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
        using IHost host = builder.Build();

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => host.StartAsync());

        Assert.Equal(expected, ex.Kind);
        Assert.Equal(server.Endpoint, ex.Server);
        Assert.Equal("noop", ex.Operation);
    }

    [Fact]
    public async Task StartAsync_PasswordFromASecretSource_BindsAndAuthenticates()
    {
        // A secret comes through any IConfiguration source layered over appsettings: environment variables here (as a
        // container's secret would), user secrets or a key vault alike.
        using MemcachedServer server = fixture.StartTls(users: AppUser);
        string prefix = $"CACHESERIALIZER_TEST_{Guid.NewGuid():N}_";
        Environment.SetEnvironmentVariable(prefix + "Memcached__Password", Password);
        try
        {
            HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
            builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Memcached:Servers:0"] = server.Endpoint,
                ["Memcached:UserName"] = User,
                ["Memcached:Tls:Enabled"] = "true",
                ["Memcached:Tls:CaCertificatePath"] = fixture.Certificates.CaPath,
            });
            builder.Configuration.AddEnvironmentVariables(prefix);
            builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
            using IHost host = builder.Build();

            await host.StartAsync();
            IMemcachedClient client = host.Services.GetRequiredService<IMemcachedClient>();
            MemcachedStoreResult stored = await client.SetAsync("k", "from a secret");
            string? read = await client.GetValueAsync<string>("k");
            await host.StopAsync();

            Assert.Equal(MemcachedStoreResult.Stored, stored);
            Assert.Equal("from a secret", read);
        }
        finally
        {
            Environment.SetEnvironmentVariable(prefix + "Memcached__Password", null);
        }
    }
}
