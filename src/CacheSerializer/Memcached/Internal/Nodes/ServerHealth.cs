using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Nodes;

/// <summary>A server's health, beside its <see cref="MemcachedNode"/> (which keeps the connections): marked down (once
/// per outage, logged and counted), failing fast while down, and probed every
/// <see cref="MemcachedClientOptions.ServerDownInterval"/> by the <see cref="Heartbeat"/> until it answers again.</summary>
/// <remarks>Its state is guarded by the node's lock (the one its pool is guarded by), so that a connection the pool
/// opens is never installed after the server was marked down, and the probe's connection is installed as the server
/// is marked up.</remarks>
internal sealed partial class ServerHealth
{
    private const string FlushedNote = " (flushed: it was ejected, so its keys were written elsewhere meanwhile)";

    private readonly ServerEndpoint _endpoint;
    private readonly ClientSettings _settings;
    private readonly ILogger _logger;
    private readonly Lock _gate;
    private readonly Action _wake;
    private readonly Action<MemcachedConnection, MemcachedErrorKind, Exception> _onConnectionBroken;
    private readonly CancellationToken _disposed;
    private volatile bool _down;
    private long _downSinceTimestamp;
    private long _retryAtTimestamp;
    private long _failedCalls;
    private Exception? _downCause;

    // The probe under way while the server is down; read and written by the heartbeat thread only (Recover).
    private Task<MemcachedConnection>? _probeOpening;
    private MemcachedConnection? _probeConnection;
    private TextRequest? _probeRequest;
    private long _probeDeadline;

    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings.</param>
    /// <param name="logger">Where outages are logged (once when one starts, once when it ends).</param>
    /// <param name="gate">The node's lock, which guards this state too.</param>
    /// <param name="wake">Wakes the heartbeat, which drives the probe (<see cref="Recover"/>): called when the server is
    /// marked down (by the node) and when a step of the probe ends.</param>
    /// <param name="onConnectionBroken">What the probe's connection reports its break to (the node).</param>
    /// <param name="disposed">Cancelled when the node is disposed.</param>
    internal ServerHealth(ServerEndpoint endpoint, ClientSettings settings, ILogger logger, Lock gate, Action wake,
        Action<MemcachedConnection, MemcachedErrorKind, Exception> onConnectionBroken, CancellationToken disposed)
    {
        _endpoint = endpoint;
        _settings = settings;
        _logger = logger;
        _gate = gate;
        _wake = wake;
        _onConnectionBroken = onConnectionBroken;
        _disposed = disposed;
    }

    internal bool IsDown => _down;

    /// <summary>Gets why the server was last marked down (null before its first outage and after it is back).</summary>
    internal Exception? DownCause => _downCause;

    private string Name => _endpoint.Name;

    /// <summary>Counts a call that failed because of the server (down, timeout, broken connection), for the outage's end log.</summary>
    internal void CountFailedCall() => Interlocked.Increment(ref _failedCalls);

    /// <summary>Marks the server down, once per outage (logged and counted); false when it already is, or the node is disposed.</summary>
    internal bool TryMarkDown(Exception cause)
    {
        lock (_gate)
        {
            if (_down || _disposed.IsCancellationRequested)
            {
                return false;
            }

            _downCause = cause;
            _downSinceTimestamp = Stopwatch.GetTimestamp();
            TimeSpan firstProbe = FirstProbeAfter(cause);
            _retryAtTimestamp = _downSinceTimestamp + (long)(firstProbe.TotalSeconds * Stopwatch.Frequency);
            Interlocked.Exchange(ref _failedCalls, 0);

            // Counted and logged before _down is published (a volatile write, which callers read without the lock): a
            // call that fails fast with ServerDown finds its outage already in the log and the metric. Once per outage.
            MemcachedTelemetry.RecordOutage(_endpoint);
            LogServerDown(_logger, Name, firstProbe.TotalMilliseconds, _settings.ServerDownInterval.TotalMilliseconds, cause.Message);
            _down = true;
            return true;
        }
    }

    /// <summary>How long after being marked down a server is first probed: a quarter of
    /// <see cref="MemcachedClientOptions.ServerDownInterval"/> when it stopped answering (a timeout: a frozen, paused or
    /// swapping memcached often runs again at once, and every write a web server makes to it meanwhile fails), else the
    /// whole interval (refused, unreachable, closed); later probes come every interval.</summary>
    private TimeSpan FirstProbeAfter(Exception cause) => cause is MemcachedException { Kind: MemcachedErrorKind.Timeout }
        ? _settings.ServerDownInterval / 4
        : _settings.ServerDownInterval;

    /// <summary>The failure of a call while the server is down: <see cref="MemcachedErrorKind.ServerDown"/>, or, when it
    /// is down because it refuses the client's TLS or credentials, that refusal's kind and words (not "down").</summary>
    internal MemcachedException DownError(string operation)
    {
        if (_downCause is MemcachedException { Kind: var kind } refusal && Failures.IsRefusal(kind))
        {
            return ThrowHelper.ForOperation(refusal, operation);
        }

        TimeSpan remaining = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), Interlocked.Read(ref _retryAtTimestamp));
        return ThrowHelper.ServerDown(Name, operation, remaining, _downCause);
    }

    /// <summary>Describes the outage for the health check, or null when the server is up.</summary>
    internal (string Reason, TimeSpan DownFor, TimeSpan NextAttemptIn)? DescribeOutage()
    {
        lock (_gate)
        {
            if (!_down)
            {
                return null;
            }

            long now = Stopwatch.GetTimestamp();
            return (_downCause?.Message ?? "unknown", Stopwatch.GetElapsedTime(_downSinceTimestamp, now),
                Stopwatch.GetElapsedTime(now, Math.Max(now, Interlocked.Read(ref _retryAtTimestamp))));
        }
    }

    /// <summary>The server answered the probe: logs the outage's end and clears it. The caller holds the node's lock and
    /// installs <see cref="Recover"/>'s connection in the same section.</summary>
    internal void MarkUp(bool flushed)
    {
        // Logged before _down is cleared, as the outage was before it was set: a call that succeeds on the server again
        // finds the recovery in the log, with the calls that failed while it was down.
        double downSeconds = Stopwatch.GetElapsedTime(_downSinceTimestamp).TotalSeconds;
        long failedCalls = Interlocked.Read(ref _failedCalls);
        LogServerUp(_logger, Name, downSeconds, failedCalls, flushed ? FlushedNote : string.Empty);
        _downCause = null;
        _down = false;
    }

    [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "memcached server {Server} is down, probed in {FirstProbeMs} ms and then every {IntervalMs} ms; until it is back its calls are misses or fail fast (OnServerFailure): {Reason}")]
    private static partial void LogServerDown(ILogger logger, string server, double firstProbeMs, double intervalMs, string reason);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "memcached server {Server} is back up after {DownSeconds:F1} s down; {FailedCalls} calls failed or missed meanwhile{Flushed}")]
    private static partial void LogServerUp(ILogger logger, string server, double downSeconds, long failedCalls, string flushed);

    [LoggerMessage(EventId = 3, Level = LogLevel.Debug, Message = "memcached server {Server} is still down: {Reason}")]
    private static partial void LogProbeFailed(ILogger logger, string server, string reason);
}
