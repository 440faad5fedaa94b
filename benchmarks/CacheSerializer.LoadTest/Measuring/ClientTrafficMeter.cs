using System.Diagnostics.Metrics;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>Sums the client's own <c>cacheserializer.memcached.bytes_sent</c> and <c>bytes_received</c> counters (docs/client.md) while it lives.</summary>
/// <remarks>The meter is process-wide: run one pass at a time, as the load test does, to count one client's traffic.</remarks>
internal sealed class ClientTrafficMeter : IDisposable
{
    private readonly MeterListener _listener = new();
    private long _sent;
    private long _received;

    /// <summary>Starts listening.</summary>
    public ClientTrafficMeter()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName &&
                instrument.Name is "cacheserializer.memcached.bytes_sent" or "cacheserializer.memcached.bytes_received")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            if (instrument.Name == "cacheserializer.memcached.bytes_sent")
            {
                Interlocked.Add(ref _sent, value);
            }
            else
            {
                Interlocked.Add(ref _received, value);
            }
        });
        _listener.Start();
    }

    /// <summary>Gets the bytes the client sent so far.</summary>
    public long Sent => Interlocked.Read(ref _sent);

    /// <summary>Gets the bytes the client received so far.</summary>
    public long Received => Interlocked.Read(ref _received);

    /// <inheritdoc/>
    public void Dispose() => _listener.Dispose();
}
