using System.Diagnostics.Metrics;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>Counts the package's factory calls made because a caller waited <c>LockTimeout</c> for a value another
/// caller had won and never stored (<c>cacheserializer.memcached.factory_calls</c> with reason <c>lock_timeout</c>,
/// docs/client.md): each one is a caller, and every caller of the same key and process, stopped that long.</summary>
/// <remarks>The meter is process-wide: run one contender at a time, as the load test does.</remarks>
internal sealed class LockTimeoutMeter : IDisposable
{
    private const string Instrument = "cacheserializer.memcached.factory_calls";
    private const string ReasonTag = "cacheserializer.memcached.factory.reason";

    private readonly MeterListener _listener = new();
    private long _count;

    /// <summary>Starts listening.</summary>
    public LockTimeoutMeter()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName && instrument.Name == Instrument)
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                if (tag.Key == ReasonTag && tag.Value is "lock_timeout")
                {
                    Interlocked.Add(ref _count, value);
                }
            }
        });
        _listener.Start();
    }

    /// <summary>Gets the factory calls made after a lock timeout so far.</summary>
    public long Count => Interlocked.Read(ref _count);

    /// <inheritdoc/>
    public void Dispose() => _listener.Dispose();
}
