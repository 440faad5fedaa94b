using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Checking;

/// <summary>The memcached requests one cache call of a web server made, with the outcome the client recorded for each
/// (its <c>db.client.operation.duration</c> measurement: operation, server, outcome, error type): so that a delete the
/// client answered false for can be told from one whose server failed, and a stale value explained by what each write
/// of its key did on which server.</summary>
/// <remarks>It flows with the call as an <see cref="AsyncLocal{T}"/>, as <see cref="ReadProbe"/> does: the client records
/// each request's outcome in its own async methods, which run in the caller's execution context. The listener is
/// process-wide and started by the first probe.</remarks>
internal sealed class CallProbe
{
    private const string Instrument = "db.client.operation.duration";

    private static readonly AsyncLocal<CallProbe?> CurrentProbe = new();
    private static readonly Lazy<MeterListener> Listener = new(StartListener);

    private readonly StringBuilder _requests = new();
    private int _serverFailures;

    /// <summary>Gets the number of the call's requests that failed on their server (<c>server_failure</c>: down, a timeout,
    /// a broken connection), whatever the client then returned.</summary>
    public int ServerFailures => Volatile.Read(ref _serverFailures);

    /// <summary>Starts the probe of a call on the current flow (call it in the async method that makes the call).</summary>
    /// <returns>The probe.</returns>
    public static CallProbe Start()
    {
        _ = Listener.Value;
        var probe = new CallProbe();
        CurrentProbe.Value = probe;
        return probe;
    }

    /// <summary>Returns the call's requests in order: <c>operation@port outcome[/error]</c>.</summary>
    /// <returns>The list.</returns>
    public override string ToString()
    {
        lock (_requests)
        {
            return _requests.ToString();
        }
    }

    private void Record(string operation, object? port, string outcome, string? error)
    {
        // A server failure (Failures.IsServerFailure's kinds): returned as the request's failure result under
        // OnServerFailure = Miss (outcome server_failure), thrown under Throw (outcome error, with its type).
        if (outcome == "server_failure" || error is "timeout" or "server_down" or "connection_broken" or "connect_failed" or "queue_full"
            or "tls_handshake_failed" or "authentication_failed" or "authentication_required" or "authentication_not_enabled")
        {
            Interlocked.Increment(ref _serverFailures);
        }

        lock (_requests)
        {
            _requests.Append(_requests.Length == 0 ? string.Empty : ", ")
                .Append(CultureInfo.InvariantCulture, $"{operation}@{port} {outcome}{(error is null ? string.Empty : "/" + error)}");
        }
    }

    private static MeterListener StartListener()
    {
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == MemcachedClient.MeterName && instrument.Name == Instrument)
                {
                    l.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<double>((_, _, tags, _) =>
        {
            if (CurrentProbe.Value is not { } probe)
            {
                return;
            }

            string operation = "?", outcome = "?";
            string? error = null;
            object? port = null;
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                switch (tag.Key)
                {
                    case "db.operation.name": operation = tag.Value as string ?? "?"; break;
                    case "server.port": port = tag.Value; break;
                    case "cacheserializer.memcached.outcome": outcome = tag.Value as string ?? "?"; break;
                    case "error.type": error = tag.Value as string; break;
                }
            }

            probe.Record(operation, port, outcome, error);
        });
        listener.Start();
        return listener;
    }
}
