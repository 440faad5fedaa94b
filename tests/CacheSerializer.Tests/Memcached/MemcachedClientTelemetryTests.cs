using System.Diagnostics;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The instruments and spans of docs/client.md, by name, through a <see cref="ClientMeterListener"/> and an
/// <see cref="ActivityListener"/>, each test against a server of its own (the meter and source are process-wide, so
/// every measurement is filtered by the server's port).</summary>
public sealed class MemcachedClientTelemetryTests
{
    [Fact]
    public async Task Operations_RecordDbClientOperationDurationWithSemanticConventionTags_BytesAndConnections()
    {
        using var server = MemcachedServer.Start();
        using var meters = ClientMeterListener.ForPort(server.Port);
        var options = new MemcachedClientOptions { Servers = { server.Endpoint }, ConnectionsPerServer = 1 };

        await using (var client = new MemcachedClient(options))
        {
            await client.SetAsync("m:1", "v");
            await client.GetAsync<string>("m:1");
            await client.GetAsync<string>("m:2");
            await client.AddAsync("m:1", "w");
            await client.DeleteAsync("m:3");
            await client.GetManyAsync<string>(["m:1", "m:2"]);
            Assert.Equal(1, meters.Sum("db.client.connection.count"));
        }

        IReadOnlyList<ClientMeasurement> durations = meters.Of("db.client.operation.duration");
        Assert.Equal(
            [("set", "stored", null), ("get", "hit", null), ("get", "miss", null), ("add", "not_stored", null), ("delete", "not_found", null), ("get_many", "partial", null)],
            durations.Select(static d => ((string)d.Tag("db.operation.name")!, (string)d.Tag("cacheserializer.memcached.outcome")!, (string?)d.Tag("error.type"))));
        Assert.All(durations, static d => Assert.Equal(("s", "memcached", "127.0.0.1"), (d.Unit, d.Tag("db.system.name"), d.Tag("server.address"))));
        Assert.All(durations, static d => Assert.InRange(d.Value, 0, 30));
        Assert.Equal(["cacheserializer.memcached.outcome", "db.operation.name", "db.system.name", "server.address", "server.port"], durations.SelectMany(static d => d.Tags.Keys).Distinct().Order(StringComparer.Ordinal));
        Assert.True(meters.Sum("cacheserializer.memcached.bytes_sent") > 50);
        Assert.True(meters.Sum("cacheserializer.memcached.bytes_received") > 10);
        Assert.All(meters.Of("db.client.connection.count"), static c => Assert.Equal("used", c.Tag("db.client.connection.state")));
        Assert.Equal(0, meters.Sum("db.client.connection.count"));
    }

    [Fact]
    public async Task ServerDown_DurationCarriesErrorTypeAndOutcomeServerFailure()
    {
        int port = MemcachedServer.FreePort();
        using var meters = ClientMeterListener.ForPort(port, "db.client.operation.duration");
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { $"127.0.0.1:{port}" }, ServerDownInterval = TimeSpan.FromSeconds(30) });

        await client.GetAsync<string>("k");
        await client.SetAsync("k", "v");

        Assert.Equal(
            [("get", "server_failure", "connect_failed"), ("set", "server_failure", "server_down")],
            meters.Measurements.Select(static d => ((string)d.Tag("db.operation.name")!, (string)d.Tag("cacheserializer.memcached.outcome")!, (string?)d.Tag("error.type"))));
    }

    [Fact]
    public async Task GetOrCreate_CountsFactoryCallsByReasonAndNamesItsOperations()
    {
        using var server = MemcachedServer.Start();
        using var meters = ClientMeterListener.ForPort(server.Port, "db.client.operation.duration", "cacheserializer.memcached.factory_calls");
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        var options = new GetOrCreateOptions { StaleWhileRevalidate = TimeSpan.FromMinutes(1) };
        var refreshed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        await client.GetOrCreateAsync("goc", _ => Task.FromResult("v1"), options);
        await client.GetOrCreateAsync("goc", _ => Task.FromResult("unused"), options);
        await client.InvalidateAsync("goc", options);
        await client.GetOrCreateAsync("goc", _ =>
        {
            refreshed.SetResult();
            return Task.FromResult("v2");
        }, options);
        await refreshed.Task.WaitAsync(Bound.NotStuck);

        IReadOnlyList<ClientMeasurement> factoryCalls = meters.Of("cacheserializer.memcached.factory_calls");
        Assert.All(factoryCalls, static c => Assert.Equal(("{call}", 1.0, "memcached"), (c.Unit, c.Value, c.Tag("db.system.name"))));
        Assert.Equal(["won", "refresh"], factoryCalls.Select(static c => (string)c.Tag("cacheserializer.memcached.factory.reason")!));
        Assert.Equal(
            [("get_or_create", "won"), ("cas", "stored"), ("get_or_create", "hit"), ("invalidate", "invalidated"), ("get_or_create", "won")],
            meters.Of("db.client.operation.duration").Take(5).Select(static d => ((string)d.Tag("db.operation.name")!, (string)d.Tag("cacheserializer.memcached.outcome")!)));
    }

    [Fact]
    public async Task Operations_WithAnActivityListener_OneClientSpanPerOperationWithSemanticConventionTags()
    {
        using var server = MemcachedServer.Start();
        var spans = new List<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == MemcachedClient.ActivitySourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                if (Equals(activity.GetTagItem("server.port"), server.Port))
                {
                    lock (spans)
                    {
                        spans.Add(activity);
                    }
                }
            },
        };
        ActivitySource.AddActivityListener(listener);
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });

        await client.SetAsync("span:1", "v");
        await client.GetManyAsync<string>(["span:1", "span:2", "span:3"]);

        Assert.Equal([$"set {server.Endpoint}", $"get_many {server.Endpoint}"], spans.Select(s => s.DisplayName));
        Assert.All(spans, s => Assert.Equal(ActivityKind.Client, s.Kind));
        Activity many = spans[1];
        Assert.Equal("memcached", many.GetTagItem("db.system.name"));
        Assert.Equal("get_many", many.GetTagItem("db.operation.name"));
        Assert.Equal("127.0.0.1", many.GetTagItem("server.address"));
        Assert.Equal(3, many.GetTagItem("db.operation.batch.size"));
        Assert.Equal("partial", many.GetTagItem("cacheserializer.memcached.outcome"));
        Assert.Equal(ActivityStatusCode.Unset, many.Status);
    }

    [Fact]
    public async Task Operations_NobodyListening_StartNoActivity()
    {
        // The source has no listener that wants its spans: the client must not even create them.
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        Activity? seen = null;
        using var other = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "some.other.source",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStarted = activity => seen = activity,
        };
        ActivitySource.AddActivityListener(other);

        await client.SetAsync("quiet", "v");

        Assert.Null(seen);
        Assert.Null(Activity.Current);
    }
}
