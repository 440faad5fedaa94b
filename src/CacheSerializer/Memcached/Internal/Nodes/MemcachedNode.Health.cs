using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Nodes;

// The node's health: marked down (once per outage, logged and counted), failing fast while down, and probed every
// ServerDownInterval by the client's heartbeat thread until it answers again.
internal sealed partial class MemcachedNode
{
    /// <summary>Counts a call that failed because of the server (down, timeout, broken connection), for the outage's end log.</summary>
    internal void CountFailedCall() => Interlocked.Increment(ref _failedCalls);

    /// <summary>Marks the server down: its connections close, its operations fail fast, and the heartbeat probes it.</summary>
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
        _wakeRecovery(); // the heartbeat probes it after ServerDownInterval (Recover)
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

    /// <summary>Drives the probe of a server that is down, on the client's heartbeat thread (and only there): every
    /// <see cref="MemcachedClientOptions.ServerDownInterval"/> it opens a connection and sends <c>mn</c>, or
    /// <c>flush_all</c> when the server was ejected and must come back empty
    /// (<see cref="MemcachedClientOptions.FlushOnReturn"/>), since its keys were written elsewhere meanwhile.</summary>
    /// <remarks>Nothing here waits for the thread pool, so an application whose synchronous calls hold every pool thread
    /// still gets its cache back as soon as the server answers (issue 30). Each step only starts something or looks at
    /// whether it ended: the open runs on a thread of its own, the probe's reply is read by the connection's read
    /// thread, and each wakes the heartbeat when it ends (<paramref name="now"/> comes round again at once) rather than
    /// queuing a continuation to the pool. So one heartbeat probes every server that is down at the same time, and
    /// still times out the other servers' requests on time.</remarks>
    /// <param name="now">The heartbeat's <see cref="Stopwatch"/> timestamp.</param>
    /// <returns>When the probe next needs the heartbeat (<see cref="long.MaxValue"/>: only when woken, or at its
    /// period).</returns>
    internal long Recover(long now)
    {
        if (!_down || _disposed.IsCancellationRequested)
        {
            return long.MaxValue;
        }

        try
        {
            if (_probeRequest is { } request)
            {
                return AwaitProbeReply(request, now);
            }

            if (_probeOpening is { } opening)
            {
                return opening.IsCompleted ? SendProbe(opening, now) : long.MaxValue;
            }

            long retryAt = Interlocked.Read(ref _retryAtTimestamp);
            if (now < retryAt)
            {
                return retryAt;
            }

            opening = MemcachedConnection.OpenAsync(_endpoint, _settings, _onConnectionBroken, _disposed.Token);
            _probeOpening = opening;

            // Run by the thread that ends the open (its own), never queued to the pool; inline if it already ended.
            _ = opening.ContinueWith(static (_, wake) => ((Action)wake!)(), _wakeRecovery, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            return long.MaxValue;
        }
        catch (Exception ex)
        {
            return ProbeFailed(ex);
        }
    }

    /// <summary>The client is disposed and its heartbeat ends: a probe under way leaves no connection behind.</summary>
    internal void StopRecovery()
    {
        _probeConnection?.Break(new ObjectDisposedException(nameof(MemcachedClient)), MemcachedErrorKind.ConnectionBroken);
        if (_probeOpening is { } opening)
        {
            _ = opening.ContinueWith(static t => t.Result.Break(new ObjectDisposedException(nameof(MemcachedClient)), MemcachedErrorKind.ConnectionBroken), CancellationToken.None, TaskContinuationOptions.OnlyOnRanToCompletion | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            BackgroundTask.ObserveFailure(opening);
        }

        _probeOpening = null;
        _probeConnection = null;
        _probeRequest = null;
    }

    /// <summary>The probe's connection is open: sends <c>mn</c> (or <c>flush_all</c>) on it.</summary>
    private long SendProbe(Task<MemcachedConnection> opening, long now)
    {
        _probeOpening = null;
        MemcachedConnection connection = opening.GetAwaiter().GetResult(); // the open's failure fails the probe
        _probeConnection = connection;
        if (!connection.TryTakeSlot())
        {
            throw new IOException("the probe could not take a pipeline slot");
        }

        TextRequest probe = _settings.AutoEject && _settings.FlushOnReturn ? TextRequest.FlushAll() : TextRequest.Noop();
        probe.Server = Name;

        // Its completion only wakes the heartbeat: run on the thread that completes it (the read thread, or a break),
        // where a continuation queued to a starved pool would wait for the pool.
        probe.OnCompletedInline(_wakeRecovery);
        _probeRequest = probe;
        _probeDeadline = now + (long)(_settings.OperationTimeout.TotalSeconds * Stopwatch.Frequency);
        connection.Send(probe);
        return _probeDeadline;
    }

    /// <summary>Waits (without blocking) for the probe's reply within the operation timeout; on success the server is up.</summary>
    private long AwaitProbeReply(TextRequest request, long now)
    {
        if (!request.TryGetResult(out _)) // the probe's failure (an error reply, a break) fails it
        {
            return now < _probeDeadline
                ? _probeDeadline
                : throw new TimeoutException($"no reply to the probe's {request.Operation} within {_settings.OperationTimeout.TotalMilliseconds:F0} ms");
        }

        MemcachedConnection connection = _probeConnection!;
        _probeRequest = null;
        _probeConnection = null;
        lock (_gate)
        {
            if (_disposed.IsCancellationRequested)
            {
                connection.Break(new ObjectDisposedException(nameof(MemcachedClient)), MemcachedErrorKind.ConnectionBroken);
                return long.MaxValue;
            }

            // Logged before _down is cleared, as the outage was before it was set: a call that succeeds on the server
            // again finds the recovery in the log, with the calls that failed while it was down.
            double downSeconds = Stopwatch.GetElapsedTime(_downSinceTimestamp).TotalSeconds;
            long failedCalls = Interlocked.Read(ref _failedCalls);
            LogServerUp(_logger, Name, downSeconds, failedCalls, request.Operation == "flush_all" ? FlushedNote : string.Empty);
            _connections[0] = connection;
            _downCause = null;
            _down = false;
        }

        _onStateChanged(this);
        return long.MaxValue;
    }

    /// <summary>The probe failed: its connection is closed, and the next attempt is one interval from now.</summary>
    private long ProbeFailed(Exception ex)
    {
        _probeConnection?.Break(ex, MemcachedErrorKind.ConnectionBroken);
        _probeOpening = null;
        _probeConnection = null;
        _probeRequest = null;
        long retryAt = Stopwatch.GetTimestamp() + (long)(_settings.ServerDownInterval.TotalSeconds * Stopwatch.Frequency);
        Interlocked.Exchange(ref _retryAtTimestamp, retryAt);
        LogProbeFailed(_logger, Name, ex.Message);
        return retryAt;
    }

    [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "memcached server {Server} is down, retried every {IntervalMs} ms; until it is back its calls are misses or fail fast (OnServerFailure): {Reason}")]
    private static partial void LogServerDown(ILogger logger, string server, double intervalMs, string reason);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "memcached server {Server} is back up after {DownSeconds:F1} s down; {FailedCalls} calls failed or missed meanwhile{Flushed}")]
    private static partial void LogServerUp(ILogger logger, string server, double downSeconds, long failedCalls, string flushed);

    [LoggerMessage(EventId = 3, Level = LogLevel.Debug, Message = "memcached server {Server} is still down: {Reason}")]
    private static partial void LogProbeFailed(ILogger logger, string server, string reason);
}
