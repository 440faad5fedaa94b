using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace CacheSerializer.Tests.Memcached;

/// <summary><c>services.AddHealthChecks().AddMemcached()</c> through ASP.NET's <see cref="HealthCheckService"/>, with
/// three real servers of which one, then all, are killed.</summary>
public sealed class MemcachedHealthCheckTests
{
    [Fact]
    public async Task CheckHealth_AllUpThenOneKilledThenAllKilled_HealthyDegradedUnhealthyWithEachServersState()
    {
        using var a = MemcachedServer.Start();
        using var b = MemcachedServer.Start();
        using var c = MemcachedServer.Start();
        var services = new ServiceCollection();
        services.AddLogging();
        services.AddMemcached(o =>
        {
            o.Servers.Add(a.Endpoint);
            o.Servers.Add(b.Endpoint);
            o.Servers.Add(c.Endpoint);
            o.ConnectTimeout = TimeSpan.FromSeconds(1);
            o.ServerDownInterval = TimeSpan.FromSeconds(30);
        });
        services.AddHealthChecks().AddMemcached(tags: ["ready"]);
        await using ServiceProvider provider = services.BuildServiceProvider();
        HealthCheckService health = provider.GetRequiredService<HealthCheckService>();

        HealthReport allUp = await health.CheckHealthAsync();
        b.Kill();
        HealthReport oneDown = await health.CheckHealthAsync();
        HealthReport oneDownAgain = await health.CheckHealthAsync();
        a.Kill();
        c.Kill();
        HealthReport allDown = await health.CheckHealthAsync();

        HealthReportEntry up = allUp.Entries["memcached"];
        Assert.True(up.Status == HealthStatus.Healthy, $"{up.Status}: {up.Description}: {string.Join(" / ", up.Data.Values)}");
        Assert.Equal("all 3 memcached servers are up", up.Description);
        Assert.Equal([a.Endpoint, b.Endpoint, c.Endpoint], up.Data.Keys);
        Assert.All(up.Data.Values, v => Assert.Matches(@"^up \(\d+\.\d ms\)$", (string)v));
        Assert.Equal(["ready"], up.Tags);

        HealthReportEntry degraded = oneDown.Entries["memcached"];
        Assert.Equal(HealthStatus.Degraded, degraded.Status);
        Assert.Equal($"2 of 3 memcached servers are up; down: {b.Endpoint}", degraded.Description);
        Assert.StartsWith($"failing: noop on {b.Endpoint}: ", (string)degraded.Data[b.Endpoint], StringComparison.Ordinal);
        Assert.Matches(@"^up \(", (string)degraded.Data[a.Endpoint]);
        Assert.Equal(HealthStatus.Degraded, oneDownAgain.Entries["memcached"].Status);
        Assert.Matches(@"^down for \d+\.\d s, next attempt in \d+ ms: ", (string)oneDownAgain.Entries["memcached"].Data[b.Endpoint]);

        HealthReportEntry unhealthy = allDown.Entries["memcached"];
        Assert.Equal(HealthStatus.Unhealthy, unhealthy.Status);
        Assert.Equal($"0 of 3 memcached servers are up; down: {a.Endpoint}, {b.Endpoint}, {c.Endpoint}", unhealthy.Description);
        Assert.Equal(HealthStatus.Unhealthy, allDown.Status);
    }

    [Fact]
    public async Task CheckServersAsync_RightAfterAKillWithAnOpenConnection_MarksTheServerDownEveryRound()
    {
        // The race of a probe against a dead server's connection: sent before the read thread noticed the server closed
        // it, the probe fails with ConnectionBroken, which does not mark a server down. It asks again on a fresh
        // connection, whose refusal does: every round the next probe finds the server down, never "failing" again.
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { server.Endpoint },
            ConnectTimeout = TimeSpan.FromSeconds(1),
            ServerDownInterval = TimeSpan.FromMilliseconds(100),
        });

        for (int round = 0; round < 20; round++)
        {
            await Poll.UntilAsync(
                async () => (await client.Engine.CheckServersAsync(CancellationToken.None))[0].IsUp, $"round {round}: the server back up");
            server.Kill();

            ServerState first = (await client.Engine.CheckServersAsync(CancellationToken.None))[0];
            ServerState second = (await client.Engine.CheckServersAsync(CancellationToken.None))[0];

            Assert.StartsWith($"failing: noop on {server.Endpoint}: could not open a connection", first.Description, StringComparison.Ordinal);
            Assert.StartsWith("down for ", second.Description, StringComparison.Ordinal);
            server.Restart();
        }
    }

    [Fact]
    public void AddMemcached_NullArguments_Throw()
    {
        IHealthChecksBuilder builder = new ServiceCollection().AddHealthChecks();

        Assert.Throws<ArgumentNullException>(() => ((IHealthChecksBuilder)null!).AddMemcached());
        Assert.Throws<ArgumentNullException>(() => builder.AddMemcached(name: null!));
    }
}
