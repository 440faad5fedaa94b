using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Nodes;

// The node's health: marked down (once per outage, logged and counted), failing fast while down, and probed in the
// background every ServerDownInterval until it answers again.
internal sealed partial class MemcachedNode
{
    /// <summary>Counts a call that failed because of the server (down, timeout, broken connection), for the outage's end log.</summary>
    internal void CountFailedCall() => Interlocked.Increment(ref _failedCalls);

    /// <summary>Marks the server down: its connections close, its operations fail fast, and a background probe retries it.</summary>
    internal void MarkDown(Exception cause)
    {
        lock (_gate)
        {
            if (_down || _disposed.IsCancellationRequested)
            {
                return;
            }

            _downCause = cause;
            _downSinceTimestamp = Stopwatch.GetTimestamp();
            _retryAtTimestamp = _downSinceTimestamp + (long)(_settings.ServerDownInterval.TotalSeconds * Stopwatch.Frequency);
            Interlocked.Exchange(ref _failedCalls, 0);

            // Counted and logged before _down is published (a volatile write, which callers read without the lock): a
            // call that fails fast with ServerDown finds its outage already in the log and the metric. Once per outage.
            MemcachedTelemetry.RecordOutage(_endpoint);
            LogServerDown(_logger, Name, _settings.ServerDownInterval.TotalMilliseconds, cause.Message);
            _down = true;
        }

        // A server that requires authentication the client does not have refused everything on every connection (none
        // of them authenticated): their requests fail with that reason. Otherwise written requests may have been applied.
        MemcachedException downError = cause is MemcachedException { Kind: MemcachedErrorKind.AuthenticationRequired } unauthenticated
            ? unauthenticated
            : ThrowHelper.ServerDown(Name, "pending", _settings.ServerDownInterval, cause);
        for (int i = 0; i < _connections.Length; i++)
        {
            Interlocked.Exchange(ref _connections[i], null)?.Break(downError, downError.Kind);
        }

        _onStateChanged(this);
        _ = Task.Run(ProbeUntilUpAsync);
    }

    private void ThrowIfDown(string operation)
    {
        ObjectDisposedException.ThrowIf(_disposed.IsCancellationRequested, typeof(MemcachedClient));
        if (_down)
        {
            throw DownError(operation);
        }
    }

    /// <summary>The failure of a call while the server is down: <see cref="MemcachedErrorKind.ServerDown"/>, or, when it
    /// is down because it refuses the client's TLS or credentials, that refusal's kind and words (not "down").</summary>
    private MemcachedException DownError(string operation)
    {
        if (_downCause is MemcachedException { Kind: var kind } refusal && Failures.IsRefusal(kind))
        {
            return ThrowHelper.ForOperation(refusal, operation);
        }

        TimeSpan remaining = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), Interlocked.Read(ref _retryAtTimestamp));
        return ThrowHelper.ServerDown(Name, operation, remaining, _downCause);
    }

    /// <summary>Retries the server every <see cref="MemcachedClientOptions.ServerDownInterval"/>: connects and sends
    /// <c>mn</c>, or <c>flush_all</c> when the server was ejected and must come back empty
    /// (<see cref="MemcachedClientOptions.FlushOnReturn"/>), since its keys were written elsewhere meanwhile.</summary>
    private async Task ProbeUntilUpAsync()
    {
        CancellationToken token = _disposed.Token;
        bool flush = _settings.AutoEject && _settings.FlushOnReturn;
        while (!token.IsCancellationRequested)
        {
            MemcachedConnection? connection = null;
            try
            {
                await Task.Delay(_settings.ServerDownInterval, token).ConfigureAwait(false);
                connection = await MemcachedConnection.OpenAsync(_endpoint, _settings, _onConnectionBroken, token).ConfigureAwait(false);
                if (!connection.TryTakeSlot())
                {
                    throw new IOException("the probe could not take a pipeline slot");
                }

                TextRequest probe = flush ? TextRequest.FlushAll() : TextRequest.Noop();
                probe.Server = Name;
                connection.Send(probe);
                await probe.AsValueTask().AsTask().WaitAsync(_settings.OperationTimeout, token).ConfigureAwait(false);
                lock (_gate)
                {
                    // Logged before _down is cleared, as the outage was before it was set: a call that succeeds on the
                    // server again finds the recovery in the log, with the calls that failed while it was down.
                    double downSeconds = Stopwatch.GetElapsedTime(_downSinceTimestamp).TotalSeconds;
                    long failedCalls = Interlocked.Read(ref _failedCalls);
                    LogServerUp(_logger, Name, downSeconds, failedCalls, flush ? FlushedNote : string.Empty);
                    _connections[0] = connection;
                    _downCause = null;
                    _down = false;
                }

                _onStateChanged(this);
                return;
            }
            catch (OperationCanceledException) when (token.IsCancellationRequested)
            {
                connection?.Break(new ObjectDisposedException(nameof(MemcachedClient)), MemcachedErrorKind.ConnectionBroken);
                return;
            }
            catch (Exception ex)
            {
                connection?.Break(ex, MemcachedErrorKind.ConnectionBroken);
                Interlocked.Exchange(ref _retryAtTimestamp, Stopwatch.GetTimestamp() + (long)(_settings.ServerDownInterval.TotalSeconds * Stopwatch.Frequency));
                LogProbeFailed(_logger, Name, ex.Message);
            }
        }
    }

    [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "memcached server {Server} is down, retried every {IntervalMs} ms; until it is back its calls are misses or fail fast (OnServerFailure): {Reason}")]
    private static partial void LogServerDown(ILogger logger, string server, double intervalMs, string reason);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "memcached server {Server} is back up after {DownSeconds:F1} s down; {FailedCalls} calls failed or missed meanwhile{Flushed}")]
    private static partial void LogServerUp(ILogger logger, string server, double downSeconds, long failedCalls, string flushed);

    [LoggerMessage(EventId = 3, Level = LogLevel.Debug, Message = "memcached server {Server} is still down: {Reason}")]
    private static partial void LogProbeFailed(ILogger logger, string server, string reason);
}
