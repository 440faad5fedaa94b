using System.Diagnostics;
using System.Diagnostics.Metrics;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.FailurePolicy;

namespace CacheSerializer.Memcached.Internal.Telemetry;

/// <summary>The client's instruments and spans (docs/client.md, "Metrics and tracing"): OpenTelemetry's database-client
/// semantic conventions, plus a few counters of our own under <c>cacheserializer.memcached.*</c>.</summary>
/// <remarks>
/// Nothing is allocated and no tag list is built when nobody listens: every instrument checks <c>Enabled</c>, and
/// <see cref="StartActivity"/> returns null unless an <see cref="ActivityListener"/> samples the source.
/// </remarks>
internal static class MemcachedTelemetry
{
    /// <summary>The name of both the meter and the activity source.</summary>
    internal const string Name = "CacheSerializer.Memcached";

    private static readonly string? Version = typeof(MemcachedTelemetry).Assembly.GetName().Version?.ToString();
    private static readonly Meter Meter = new(Name, Version);
    private static readonly ActivitySource Source = new(Name, Version);

    private static readonly Histogram<double> Duration = Meter.CreateHistogram(
        "db.client.operation.duration", "s", "Duration of memcached client operations, from the call to its result.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });

    private static readonly UpDownCounter<long> Connections = Meter.CreateUpDownCounter<long>(
        "db.client.connection.count", "{connection}", "Open connections, by server (pipelined connections are always in use).");

    private static readonly Counter<long> BytesSent = Meter.CreateCounter<long>(
        "cacheserializer.memcached.bytes_sent", "By", "Bytes written to memcached servers.");

    private static readonly Counter<long> BytesReceived = Meter.CreateCounter<long>(
        "cacheserializer.memcached.bytes_received", "By", "Bytes read from memcached servers.");

    private static readonly Counter<long> Outages = Meter.CreateCounter<long>(
        "cacheserializer.memcached.outages", "{outage}", "Times a server was marked down (each outage counts once, however many calls it failed).");

    private static readonly Counter<long> FactoryCalls = Meter.CreateCounter<long>(
        "cacheserializer.memcached.factory_calls", "{call}", "Factory calls of GetOrCreateAsync, by server of the key and reason (won, refresh, lock_timeout, unprotected).");

    private static readonly Counter<long> UnreadableItems = Meter.CreateCounter<long>(
        "cacheserializer.memcached.unreadable_items", "{item}", "Items a read could not deserialize (another contract, unknown type, wrong type, unknown flags, corrupt), by reason and type.");

    /// <summary>Starts the span of one operation, or returns null when nobody listens.</summary>
    internal static Activity? StartActivity(string operation, ServerEndpoint server)
    {
        if (!Source.HasListeners())
        {
            return null;
        }

        Activity? activity = Source.StartActivity(operation + " " + server.Name, ActivityKind.Client);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag("db.system.name", "memcached");
            activity.SetTag("db.operation.name", operation);
            activity.SetTag("server.address", server.Host);
            activity.SetTag("server.port", server.Port);
        }

        return activity;
    }

    /// <summary>Records an operation's duration and ends its span. <paramref name="errorType"/> is set when it failed,
    /// also when the failure was turned into a miss (<see cref="ServerFailurePolicy.Miss"/>).</summary>
    internal static void RecordOperation(Activity? activity, ServerEndpoint server, string operation, string outcome, string? errorType, long startTimestamp, int batchSize = 0)
    {
        if (activity is not null)
        {
            if (activity.IsAllDataRequested)
            {
                activity.SetTag("cacheserializer.memcached.outcome", outcome);
                if (batchSize > 1)
                {
                    activity.SetTag("db.operation.batch.size", batchSize);
                }

                if (errorType is not null)
                {
                    activity.SetTag("error.type", errorType);
                }
            }

            if (errorType is not null)
            {
                activity.SetStatus(ActivityStatusCode.Error, errorType);
            }

            activity.Dispose();
        }

        if (!Duration.Enabled)
        {
            return; // no listener: keep the hot path free of tag lists
        }

        var tags = new TagList
        {
            { "db.system.name", "memcached" },
            { "db.operation.name", operation },
            { "server.address", server.Host },
            { "server.port", server.Port },
            { "cacheserializer.memcached.outcome", outcome },
        };
        if (errorType is not null)
        {
            tags.Add("error.type", errorType);
        }

        Duration.Record(Stopwatch.GetElapsedTime(startTimestamp).TotalSeconds, tags);
    }

    internal static void RecordSent(ServerEndpoint server, long bytes)
    {
        if (BytesSent.Enabled)
        {
            BytesSent.Add(bytes, ServerTags(server));
        }
    }

    internal static void RecordReceived(ServerEndpoint server, long bytes)
    {
        if (BytesReceived.Enabled)
        {
            BytesReceived.Add(bytes, ServerTags(server));
        }
    }

    internal static void ConnectionOpened(ServerEndpoint server) => ConnectionChanged(server, 1);

    internal static void ConnectionClosed(ServerEndpoint server) => ConnectionChanged(server, -1);

    internal static void RecordOutage(ServerEndpoint server)
    {
        if (Outages.Enabled)
        {
            Outages.Add(1, ServerTags(server));
        }
    }

    /// <summary>Counts one factory call of <c>GetOrCreateAsync</c>: <c>won</c> (this caller won a miss or a stale entry
    /// and created it while others waited), <c>refresh</c> (early refresh or stale-while-revalidate, in the background),
    /// <c>lock_timeout</c> (waited <c>LockTimeout</c> for another caller), <c>unprotected</c> (a miss without a win:
    /// the server failed, or could not create the placeholder).</summary>
    internal static void RecordFactoryCall(ServerEndpoint server, string reason)
    {
        if (FactoryCalls.Enabled)
        {
            FactoryCalls.Add(1, new TagList
            {
                { "db.system.name", "memcached" },
                { "server.address", server.Host },
                { "server.port", server.Port },
                { "cacheserializer.memcached.factory.reason", reason },
            });
        }
    }

    /// <summary>Counts one item a read could not deserialize, by <paramref name="reason"/> (the snake-case
    /// <see cref="TranscoderErrorKind"/>: other_contract, unknown_type, wrong_type, unknown_flags, malformed, other) and
    /// the type involved; <paramref name="server"/> is null for HybridCache's serializer, which reads no server.</summary>
    internal static void RecordUnreadable(ServerEndpoint? server, string reason, Type type)
    {
        if (UnreadableItems.Enabled)
        {
            var tags = new TagList
            {
                { "db.system.name", "memcached" },
                { "cacheserializer.memcached.unreadable.reason", reason },
                { "cacheserializer.memcached.unreadable.type", type.ToString() },
            };
            if (server is not null)
            {
                tags.Add("server.address", server.Host);
                tags.Add("server.port", server.Port);
            }

            UnreadableItems.Add(1, tags);
        }
    }

    private static void ConnectionChanged(ServerEndpoint server, int delta)
    {
        if (Connections.Enabled)
        {
            Connections.Add(delta, new TagList
            {
                { "db.system.name", "memcached" },
                { "db.client.connection.pool.name", server.Name },
                { "db.client.connection.state", "used" },
            });
        }
    }

    private static TagList ServerTags(ServerEndpoint server) => new()
    {
        { "db.system.name", "memcached" },
        { "server.address", server.Host },
        { "server.port", server.Port },
    };
}
