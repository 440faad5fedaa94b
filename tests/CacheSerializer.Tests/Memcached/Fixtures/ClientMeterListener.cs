using System.Diagnostics.Metrics;
using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Listens to the client's meter (<see cref="MemcachedClient.MeterName"/>) and keeps the measurements a test
/// asked for. The meter is process-wide: every client of every test running meanwhile publishes on it, so a test keeps
/// only what its own server's port is tagged with (<see cref="ForPort"/>), or says what else singles its measurements
/// out, and reads what was kept as a snapshot (<see cref="Measurements"/>) while others may still arrive
/// (docs/contributing.md, "Repeated runs": process-wide state).</summary>
public sealed class ClientMeterListener : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly Func<ClientMeasurement, bool> _keep;
    private readonly List<ClientMeasurement> _kept = [];

    /// <summary>Starts listening to <paramref name="instruments"/> (every instrument of the meter when none is named),
    /// keeping the measurements <paramref name="keep"/> accepts.</summary>
    public ClientMeterListener(Func<ClientMeasurement, bool> keep, params string[] instruments)
    {
        _keep = keep;
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == MemcachedClient.MeterName && (instruments.Length == 0 || instruments.Contains(instrument.Name)))
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<int>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.Start();
    }

    /// <summary>Gets a snapshot of the measurements kept so far, in the order they were recorded.</summary>
    public IReadOnlyList<ClientMeasurement> Measurements
    {
        get
        {
            lock (_kept)
            {
                return [.. _kept];
            }
        }
    }

    /// <summary>Listens to <paramref name="instruments"/> (every instrument when none is named), keeping what concerns the
    /// server on 127.0.0.1:<paramref name="port"/>: measurements tagged with its <c>server.port</c>, and the connection
    /// counts of its pool (named after its endpoint).</summary>
    public static ClientMeterListener ForPort(int port, params string[] instruments) =>
        new(m => Equals(m.Tag("server.port"), port) || Equals(m.Tag("db.client.connection.pool.name"), $"127.0.0.1:{port}"), instruments);

    /// <summary>Returns a snapshot of the kept measurements of <paramref name="instrument"/>.</summary>
    public IReadOnlyList<ClientMeasurement> Of(string instrument) => [.. Measurements.Where(m => m.Instrument == instrument)];

    /// <summary>Returns the sum of the kept measurements of <paramref name="instrument"/> (a counter's total so far).</summary>
    public double Sum(string instrument) => Of(instrument).Sum(static m => m.Value);

    /// <summary>Stops listening.</summary>
    public void Dispose() => _listener.Dispose();

    private void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var map = new Dictionary<string, object?>(StringComparer.Ordinal);
        foreach (KeyValuePair<string, object?> tag in tags)
        {
            map[tag.Key] = tag.Value;
        }

        var measurement = new ClientMeasurement(instrument.Name, instrument.Unit, value, map);
        if (_keep(measurement))
        {
            lock (_kept)
            {
                _kept.Add(measurement);
            }
        }
    }
}
