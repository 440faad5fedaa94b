using System.Diagnostics;
using System.Diagnostics.Metrics;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached;

/// <summary>The instruments and spans of docs/client.md, by name, through a <see cref="MeterListener"/> and an
/// <see cref="ActivityListener"/>, each test against a server of its own (the meter and source are process-wide, so
/// every measurement is filtered by the server's port).</summary>
public sealed class MemcachedClientTelemetryTests
{
    private static Dictionary<string, object?> TagMap(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var map = new Dictionary<string, object?>(StringComparer.Ordinal);
        foreach (KeyValuePair<string, object?> tag in tags)
        {
            map[tag.Key] = tag.Value;
        }

        return map;
    }

    [Fact]
    public async Task Operations_RecordDbClientOperationDurationWithSemanticConventionTags_BytesAndConnections()
    {
        using var server = MemcachedServer.Start();
        var operations = new List<(string Operation, string Outcome, string? Error)>();
        var tagNames = new HashSet<string>(StringComparer.Ordinal);
        long sent = 0;
        long received = 0;
        long connections = 0;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) =>
        {
            Dictionary<string, object?> map = TagMap(tags);
            if (instrument.Name == "db.client.operation.duration" && Equals(map.GetValueOrDefault("server.port"), server.Port))
            {
                Assert.Equal("s", instrument.Unit);
                Assert.InRange(value, 0, 30);
                lock (operations)
                {
                    operations.Add(((string)map["db.operation.name"]!, (string)map["cacheserializer.memcached.outcome"]!, (string?)map.GetValueOrDefault("error.type")));
                    tagNames.UnionWith(map.Keys);
                    Assert.Equal("memcached", map["db.system.name"]);
                    Assert.Equal("127.0.0.1", map["server.address"]);
                }
            }
        });
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            Dictionary<string, object?> map = TagMap(tags);
            switch (instrument.Name)
            {
                case "cacheserializer.memcached.bytes_sent" when Equals(map.GetValueOrDefault("server.port"), server.Port):
                    Interlocked.Add(ref sent, value);
                    break;
                case "cacheserializer.memcached.bytes_received" when Equals(map.GetValueOrDefault("server.port"), server.Port):
                    Interlocked.Add(ref received, value);
                    break;
                case "db.client.connection.count" when Equals(map.GetValueOrDefault("db.client.connection.pool.name"), server.Endpoint):
                    Assert.Equal("used", map["db.client.connection.state"]);
                    Interlocked.Add(ref connections, value);
                    break;
            }
        });
        listener.Start();
        var options = new MemcachedClientOptions { Servers = { server.Endpoint }, ConnectionsPerServer = 1 };

        await using (var client = new MemcachedClient(options))
        {
            await client.SetAsync("m:1", "v");
            await client.GetAsync<string>("m:1");
            await client.GetAsync<string>("m:2");
            await client.AddAsync("m:1", "w");
            await client.DeleteAsync("m:3");
            await client.GetManyAsync<string>(["m:1", "m:2"]);
            Assert.Equal(1, Interlocked.Read(ref connections));
        }

        Assert.Equal(
            [("set", "stored", null), ("get", "hit", null), ("get", "miss", null), ("add", "not_stored", null), ("delete", "not_found", null), ("get_many", "partial", null)],
            operations);
        Assert.Equal(["cacheserializer.memcached.outcome", "db.operation.name", "db.system.name", "server.address", "server.port"], tagNames.Order(StringComparer.Ordinal));
        Assert.True(Interlocked.Read(ref sent) > 50);
        Assert.True(Interlocked.Read(ref received) > 10);
        Assert.Equal(0, Interlocked.Read(ref connections));
    }

    [Fact]
    public async Task ServerDown_DurationCarriesErrorTypeAndOutcomeServerFailure()
    {
        int port = MemcachedServer.FreePort();
        var errors = new List<(string Operation, string Outcome, string? Error)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName && instrument.Name == "db.client.operation.duration")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<double>((_, _, tags, _) =>
        {
            Dictionary<string, object?> map = TagMap(tags);
            if (Equals(map.GetValueOrDefault("server.port"), port))
            {
                lock (errors)
                {
                    errors.Add(((string)map["db.operation.name"]!, (string)map["cacheserializer.memcached.outcome"]!, (string?)map.GetValueOrDefault("error.type")));
                }
            }
        });
        listener.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { $"127.0.0.1:{port}" }, ServerDownInterval = TimeSpan.FromSeconds(30) });

        await client.GetAsync<string>("k");
        await client.SetAsync("k", "v");

        Assert.Equal([("get", "server_failure", "connect_failed"), ("set", "server_failure", "server_down")], errors);
    }

    [Fact]
    public async Task GetOrCreate_CountsFactoryCallsByReasonAndNamesItsOperations()
    {
        using var server = MemcachedServer.Start();
        var operations = new List<(string Operation, string Outcome)>();
        var reasons = new List<string>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName && instrument.Name is "db.client.operation.duration" or "cacheserializer.memcached.factory_calls")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<double>((_, _, tags, _) =>
        {
            Dictionary<string, object?> map = TagMap(tags);
            if (Equals(map.GetValueOrDefault("server.port"), server.Port))
            {
                lock (operations)
                {
                    operations.Add(((string)map["db.operation.name"]!, (string)map["cacheserializer.memcached.outcome"]!));
                }
            }
        });
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            Dictionary<string, object?> map = TagMap(tags);
            if (Equals(map.GetValueOrDefault("server.port"), server.Port))
            {
                Assert.Equal(("{call}", 1L, "memcached"), (instrument.Unit, value, map["db.system.name"]));
                lock (reasons)
                {
                    reasons.Add((string)map["cacheserializer.memcached.factory.reason"]!);
                }
            }
        });
        listener.Start();
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
        await refreshed.Task.WaitAsync(TimeSpan.FromSeconds(30));

        lock (reasons)
        {
            Assert.Equal(["won", "refresh"], reasons);
        }

        lock (operations)
        {
            Assert.Equal([("get_or_create", "won"), ("cas", "stored"), ("get_or_create", "hit"), ("invalidate", "invalidated"), ("get_or_create", "won")], operations.Take(5));
        }
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
