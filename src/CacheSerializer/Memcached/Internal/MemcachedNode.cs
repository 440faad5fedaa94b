using System.Diagnostics;
using System.Runtime.CompilerServices;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal;

/// <summary>One server: its small pool of pipelined connections, the life of a request on it (acquire a connection,
/// send, await the reply, cancel), and its health (up, or down until a background probe succeeds).</summary>
internal sealed partial class MemcachedNode : IDisposable
{
    private const string FlushedNote = " (flushed: it was ejected, so its keys were written elsewhere meanwhile)";

    private readonly ServerEndpoint _endpoint;
    private readonly ClientSettings _settings;
    private readonly ILogger _logger;
    private readonly Action<MemcachedNode> _onStateChanged;
    private readonly Action<MemcachedConnection, MemcachedErrorKind, Exception> _onConnectionBroken;
    private readonly MemcachedConnection?[] _connections;
    private readonly Task<MemcachedConnection>?[] _opening;
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _disposed = new();
    private int _next;
    private volatile bool _down;
    private long _downSinceTimestamp;
    private long _retryAtTimestamp;
    private long _failedCalls;
    private Exception? _downCause;

    /// <summary>Creates the node.</summary>
    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings.</param>
    /// <param name="logger">Where outages are logged (once when one starts, once when it ends).</param>
    /// <param name="onStateChanged">Called after the server is marked down and after it is back up.</param>
    internal MemcachedNode(ServerEndpoint endpoint, ClientSettings settings, ILogger logger, Action<MemcachedNode> onStateChanged)
    {
        _endpoint = endpoint;
        _settings = settings;
        _logger = logger;
        _onStateChanged = onStateChanged;
        _onConnectionBroken = OnConnectionBroken;
        _connections = new MemcachedConnection?[settings.ConnectionsPerServer];
        _opening = new Task<MemcachedConnection>?[settings.ConnectionsPerServer];
    }

    internal string Name => _endpoint.Name;

    internal ServerEndpoint Endpoint => _endpoint;

    internal bool IsDown => _down;

    /// <summary>Sends a request and returns its reply: takes a pipeline slot on a live connection (opening one if
    /// needed, waiting for one under back-pressure), queues the request, and ends the wait when the token is cancelled.</summary>
    /// <exception cref="MemcachedException">The server is down, could not be connected, timed out, or the connection broke.</exception>
    /// <exception cref="OperationCanceledException">The token was cancelled; a request already written still reads its reply.</exception>
    internal ValueTask<TResult> ExecuteAsync<TResult>(MemcachedRequest<TResult> request, CancellationToken cancellationToken)
    {
        request.Server = Name;
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<TResult>(cancellationToken);
        }

        ValueTask<MemcachedConnection> acquire = AcquireAsync(request.Operation, cancellationToken);
        if (acquire.IsCompletedSuccessfully && !cancellationToken.CanBeCanceled)
        {
            acquire.Result.Send(request);
            return request.AsValueTask(); // the common case allocates no state machine here
        }

        return SendAndAwaitAsync(acquire, request, cancellationToken);
    }

    /// <summary>Sends <c>mn</c> and waits for its answer, outside the failure policy: the health check's probe.</summary>
    /// <remarks>A probe that meets a connection the server closed before the read thread noticed (the server died or
    /// restarted) fails with <see cref="MemcachedErrorKind.ConnectionBroken"/>, which says nothing of the server now, and
    /// does not mark it down: <c>mn</c> changes nothing, so the probe asks once more, on a fresh connection, whose
    /// answer (or refusal, which marks the server down) is the server's state.</remarks>
    internal async Task<TimeSpan> PingAsync(CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        try
        {
            await ExecuteAsync(TextRequest.Noop(), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException ex) when (ex.Kind == MemcachedErrorKind.ConnectionBroken)
        {
            start = Stopwatch.GetTimestamp();
            await ExecuteAsync(TextRequest.Noop(), cancellationToken).ConfigureAwait(false);
        }

        return Stopwatch.GetElapsedTime(start);
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

    /// <summary>Counts a call that failed because of the server (down, timeout, broken connection), for the outage's end log.</summary>
    internal void CountFailedCall() => Interlocked.Increment(ref _failedCalls);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<TResult> SendAndAwaitAsync<TResult>(ValueTask<MemcachedConnection> acquire, MemcachedRequest<TResult> request, CancellationToken cancellationToken)
    {
        MemcachedConnection connection = await acquire.ConfigureAwait(false);
        connection.Send(request);
        if (!cancellationToken.CanBeCanceled)
        {
            return await request.AsValueTask().ConfigureAwait(false);
        }

        // Cancelling ends the caller's wait at once. A request not yet written is then dropped by the write thread; one
        // already written stays in the FIFO and its reply is read and discarded, so the connection stays in step.
        using (cancellationToken.UnsafeRegister(static (state, token) => ((MemcachedRequest<TResult>)state!).Cancel(token), request))
        {
            return await request.AsValueTask().ConfigureAwait(false);
        }
    }

    /// <summary>Returns a live connection with a pipeline slot taken for the caller; fails fast while the server is down.</summary>
    private async ValueTask<MemcachedConnection> AcquireAsync(string operation, CancellationToken cancellationToken)
    {
        // A caller that waited for a slot on a connection that then broke has sent nothing: it tries once more.
        return await AcquireOnceAsync(operation, retryIfBroken: true, cancellationToken).ConfigureAwait(false)
            ?? await AcquireOnceAsync(operation, retryIfBroken: false, cancellationToken).ConfigureAwait(false)
            ?? throw ThrowHelper.ConnectionBroken(Name, operation, null);
    }

    private async ValueTask<MemcachedConnection?> AcquireOnceAsync(string operation, bool retryIfBroken, CancellationToken cancellationToken)
    {
        ThrowIfDown(operation);
        int count = _connections.Length;
        int first = (int)((uint)Interlocked.Increment(ref _next) % (uint)count);
        MemcachedConnection? busy = null;
        int dead = -1;
        for (int i = 0; i < count; i++)
        {
            int slot = (first + i) % count;
            MemcachedConnection? connection = Volatile.Read(ref _connections[slot]);
            if (connection is null || connection.IsBroken)
            {
                dead = dead < 0 ? slot : dead;
                continue;
            }

            if (connection.TryTakeSlot())
            {
                if (dead >= 0)
                {
                    FillEmptySlots();
                }

                return connection;
            }

            busy ??= connection;
        }

        if (busy is null)
        {
            // No live connection: open one (shared with every caller that arrives meanwhile) and wait for it.
            try
            {
                busy = await OpenSlotAsync(dead).WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (MemcachedException ex)
            {
                throw ThrowHelper.ForOperation(ex, operation);
            }

            if (busy.TryTakeSlot())
            {
                return busy;
            }
        }
        else if (dead >= 0)
        {
            // Every live connection is full and a slot of the pool is empty: fill it for the callers to come.
            _ = OpenSlotAsync(dead);
        }

        if (await busy.WaitForSlotAsync(_settings.OperationTimeout, cancellationToken).ConfigureAwait(false))
        {
            if (!busy.IsBroken)
            {
                return busy;
            }

            busy.ReleaseSlot();
            return retryIfBroken ? null : throw busy.NotSentError(operation);
        }

        throw ThrowHelper.QueueFull(Name, operation, count, _settings.MaxInFlightPerConnection, _settings.OperationTimeout);
    }

    /// <summary>Opens, in the background, every empty slot of the pool that is not already opening, so calls spread
    /// round-robin over all <see cref="MemcachedClientOptions.ConnectionsPerServer"/> connections (and memcached's
    /// worker threads) rather than piling onto the first one.</summary>
    private void FillEmptySlots()
    {
        for (int i = 0; i < _connections.Length; i++)
        {
            MemcachedConnection? c = Volatile.Read(ref _connections[i]);
            if ((c is null || c.IsBroken) && Volatile.Read(ref _opening[i]) is null)
            {
                _ = OpenSlotAsync(i);
            }
        }
    }

    /// <summary>Called by the heartbeat: breaks connections whose oldest request has waited past the operation timeout.</summary>
    internal void CheckTimeouts(long now)
    {
        foreach (MemcachedConnection? connection in _connections)
        {
            if (connection is not null && !connection.IsBroken)
            {
                connection.CheckTimeout(now, _settings.OperationTimeout);
            }
        }
    }

    /// <summary>A connection reported its break: a timeout, a server that closed a plaintext connection before answering
    /// anything (one that requires TLS), or one that turned out to require authentication marks the server down; any
    /// other close or reset only drops the connection (the next request reconnects, and a refused connect marks the
    /// server down).</summary>
    private void OnConnectionBroken(MemcachedConnection connection, MemcachedErrorKind kind, Exception cause)
    {
        for (int i = 0; i < _connections.Length; i++)
        {
            Interlocked.CompareExchange(ref _connections[i], null, connection);
        }

        if (Failures.MarksServerDown(kind))
        {
            MarkDown(cause);
        }
    }

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

    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed.IsCancellationRequested)
            {
                return;
            }

            _disposed.Cancel();
        }

        var error = new ObjectDisposedException(nameof(MemcachedClient));
        for (int i = 0; i < _connections.Length; i++)
        {
            Interlocked.Exchange(ref _connections[i], null)?.Break(error, MemcachedErrorKind.ConnectionBroken);
        }
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

    private Task<MemcachedConnection> OpenSlotAsync(int slot)
    {
        lock (_gate)
        {
            if (_opening[slot] is { } pending)
            {
                return pending;
            }

            MemcachedConnection? current = _connections[slot];
            if (current is not null && !current.IsBroken)
            {
                return Task.FromResult(current);
            }

            Task<MemcachedConnection> task = OpenCoreAsync(slot);
            if (!task.IsCompleted)
            {
                _opening[slot] = task;
            }

            // Callers that did not wait for it (background reconnects) must not leave its failure unobserved.
            _ = task.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            return task;
        }
    }

    private async Task<MemcachedConnection> OpenCoreAsync(int slot)
    {
        try
        {
            MemcachedConnection connection = await MemcachedConnection.OpenAsync(_endpoint, _settings, _onConnectionBroken, _disposed.Token).ConfigureAwait(false);
            lock (_gate)
            {
                _opening[slot] = null;
                if (_down || _disposed.IsCancellationRequested)
                {
                    connection.Break(new IOException("the server was marked down while the connection opened"), MemcachedErrorKind.ConnectionBroken);
                    throw _down ? DownError("connect") : ThrowHelper.ServerDown(Name, "connect", _settings.ServerDownInterval, _downCause);
                }

                _connections[slot] = connection;
            }

            return connection;
        }
        catch (Exception ex) when (ex is not MemcachedException { Kind: MemcachedErrorKind.ServerDown })
        {
            lock (_gate)
            {
                _opening[slot] = null;
            }

            MemcachedException error = ex as MemcachedException ?? ThrowHelper.ConnectFailed(Name, "connect", ex);
            MarkDown(error);
            throw error;
        }
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
