using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace CacheSerializer.Memcached.Internal;

/// <summary>The client's instruments, on the meter named <see cref="MeterName"/> (documented in docs/client.md).</summary>
internal static class MemcachedMetrics
{
    internal const string MeterName = "CacheSerializer.Memcached";

    private static readonly Meter Meter = new(MeterName, typeof(MemcachedMetrics).Assembly.GetName().Version?.ToString());

    private static readonly Counter<long> Operations = Meter.CreateCounter<long>(
        "memcached.client.operations", "{operation}", "Operations completed, by command and outcome (hit, miss, stored, not_stored, exists, not_found, deleted, touched, error, cancelled).");

    private static readonly Histogram<double> Duration = Meter.CreateHistogram<double>(
        "memcached.client.operation.duration", "s", "Time from the call to its result, by command.");

    private static readonly Counter<long> BytesSent = Meter.CreateCounter<long>(
        "memcached.client.bytes_sent", "By", "Bytes written to servers.");

    private static readonly Counter<long> BytesReceived = Meter.CreateCounter<long>(
        "memcached.client.bytes_received", "By", "Bytes read from servers.");

    private static readonly UpDownCounter<long> Connections = Meter.CreateUpDownCounter<long>(
        "memcached.client.connections", "{connection}", "Connections open, by server.");

    private static readonly Counter<long> ServerDown = Meter.CreateCounter<long>(
        "memcached.client.server_down", "{event}", "Times a server was marked down.");

    internal static void RecordOperation(string server, string command, string outcome, long startTimestamp)
    {
        if (!Operations.Enabled && !Duration.Enabled)
        {
            return; // no listener: keep the hot path free of tag lists
        }

        var tags = new TagList
        {
            { "memcached.server", server },
            { "memcached.command", command },
            { "memcached.outcome", outcome },
        };
        Operations.Add(1, tags);
        if (Duration.Enabled)
        {
            Duration.Record(Stopwatch.GetElapsedTime(startTimestamp).TotalSeconds, new KeyValuePair<string, object?>("memcached.command", command));
        }
    }

    internal static void RecordSent(string server, long bytes) => BytesSent.Add(bytes, new KeyValuePair<string, object?>("memcached.server", server));

    internal static void RecordReceived(string server, long bytes) => BytesReceived.Add(bytes, new KeyValuePair<string, object?>("memcached.server", server));

    internal static void ConnectionOpened(string server) => Connections.Add(1, new KeyValuePair<string, object?>("memcached.server", server));

    internal static void ConnectionClosed(string server) => Connections.Add(-1, new KeyValuePair<string, object?>("memcached.server", server));

    internal static void RecordServerDown(string server) => ServerDown.Add(1, new KeyValuePair<string, object?>("memcached.server", server));
}
