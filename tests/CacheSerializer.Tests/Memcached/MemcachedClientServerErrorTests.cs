using System.Diagnostics.Metrics;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Servers;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Server error replies and the metrics, each against a dedicated server.</summary>
public sealed class MemcachedClientServerErrorTests
{
    [Fact]
    public async Task SetAsync_ServerOutOfMemory_ThrowsServerErrorNamingServerAndOperation()
    {
        // -M: memcached answers "SERVER_ERROR out of memory storing object" instead of evicting.
        using MemcachedServer server = MemcachedServer.Start("-m 2 -M");
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        byte[] value = new byte[500_000];
        MemcachedException? error = null;
        for (int i = 0; i < 40 && error is null; i++)
        {
            try
            {
                await client.SetAsync($"oom:{i}", value);
            }
            catch (MemcachedException ex)
            {
                error = ex;
            }
        }

        Assert.NotNull(error);
        Assert.Equal(MemcachedErrorKind.ServerError, error.Kind);
        Assert.Equal("set", error.Operation);
        Assert.Equal(server.Endpoint, error.Server);
        Assert.Contains("SERVER_ERROR out of memory storing object", error.Message, StringComparison.Ordinal);
        Assert.True((await client.GetAsync<byte[]>("oom:0")).Found); // the connection is still in step
    }

    [Fact]
    public async Task Metrics_CountOperationsByOutcome_BytesAndConnections()
    {
        using MemcachedServer server = MemcachedServer.Start();
        var operations = new List<(string Command, string Outcome)>();
        long sent = 0;
        long received = 0;
        long connections = 0;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "CacheSerializer.Memcached")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var tagMap = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                tagMap[tag.Key] = tag.Value;
            }

            if (!Equals(tagMap.GetValueOrDefault("memcached.server"), server.Endpoint))
            {
                return;
            }

            switch (instrument.Name)
            {
                case "memcached.client.operations":
                    lock (operations)
                    {
                        operations.Add(((string)tagMap["memcached.command"]!, (string)tagMap["memcached.outcome"]!));
                    }

                    break;
                case "memcached.client.bytes_sent":
                    Interlocked.Add(ref sent, value);
                    break;
                case "memcached.client.bytes_received":
                    Interlocked.Add(ref received, value);
                    break;
                case "memcached.client.connections":
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
            Assert.Equal(1, Interlocked.Read(ref connections));
        }

        Assert.Equal(
            [("set", "stored"), ("get", "hit"), ("get", "miss"), ("add", "not_stored"), ("delete", "not_found")],
            operations);
        Assert.True(Interlocked.Read(ref sent) > 50);
        Assert.True(Interlocked.Read(ref received) > 10);
        Assert.Equal(0, Interlocked.Read(ref connections));
    }
}
