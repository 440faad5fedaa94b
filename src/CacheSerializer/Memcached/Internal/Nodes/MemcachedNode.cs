using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Nodes;

/// <summary>One server: its small pool of pipelined connections and the life of a request on it (acquire a connection,
/// send, await the reply, cancel); its health (up, or down until the heartbeat's probe succeeds) is a
/// <see cref="ServerHealth"/> beside it.</summary>
/// <remarks>One concern per file: the life of a request, and what the node does when its health changes, here; the
/// connection pool (acquire, open, fill, time out, drop a broken one) in MemcachedNode.Connections.cs; health (mark
/// down, fail fast, probe until up, outage logs) in ServerHealth.cs.</remarks>
internal sealed partial class MemcachedNode : IDisposable
{
    private readonly ServerEndpoint _endpoint;
    private readonly ClientSettings _settings;
    private readonly ILogger _logger;
    private readonly Action<MemcachedNode> _onStateChanged;
    private readonly Action _wakeRecovery;
    private readonly Action<MemcachedConnection, MemcachedErrorKind, Exception> _onConnectionBroken;
    private readonly MemcachedConnection?[] _connections;
    private readonly Task<MemcachedConnection>?[] _opening;
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _disposed = new();
    private readonly ServerHealth _health;
    private readonly ConcurrentBag<BlockingConnection>? _blocking;
    private int _next;

    /// <summary>Creates the node.</summary>
    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings.</param>
    /// <param name="logger">Where outages are logged (once when one starts, once when it ends).</param>
    /// <param name="onStateChanged">Called after the server is marked down and after it is back up.</param>
    /// <param name="wakeRecovery">Wakes the heartbeat, which drives the probe (<see cref="Recover"/>); called when the
    /// server is marked down and when a step of the probe ends.</param>
    internal MemcachedNode(ServerEndpoint endpoint, ClientSettings settings, ILogger logger, Action<MemcachedNode> onStateChanged, Action wakeRecovery)
    {
        _endpoint = endpoint;
        _settings = settings;
        _logger = logger;
        _onStateChanged = onStateChanged;
        _wakeRecovery = wakeRecovery;
        _onConnectionBroken = OnConnectionBroken;
        _connections = new MemcachedConnection?[settings.ConnectionsPerServer];
        _opening = new Task<MemcachedConnection>?[settings.ConnectionsPerServer];
        _health = new ServerHealth(endpoint, settings, logger, _gate, wakeRecovery, _onConnectionBroken, _disposed.Token);
        _blocking = settings.TlsFor(endpoint) is null ? [] : null; // synchronous callers over TLS share the pipelined connections
    }

    internal string Name => _endpoint.Name;

    internal ServerEndpoint Endpoint => _endpoint;

    internal bool IsDown => _health.IsDown;

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

        if (!cancellationToken.CanBeCanceled && _blocking is not null && SyncCall.Current is not null)
        {
            return ExecuteBlocking(request);
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
    internal (string Reason, TimeSpan DownFor, TimeSpan NextAttemptIn)? DescribeOutage() => _health.DescribeOutage();

    /// <summary>Counts a call that failed because of the server (down, timeout, broken connection), for the outage's end log.</summary>
    internal void CountFailedCall() => _health.CountFailedCall();

    /// <summary>Marks the server down: its connections close, its operations fail fast, and the heartbeat probes it.</summary>
    internal void MarkDown(Exception cause)
    {
        if (!_health.TryMarkDown(cause))
        {
            return;
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

        CloseBlocking();
        _onStateChanged(this);
        _wakeRecovery(); // the heartbeat probes it after ServerDownInterval (Recover)
    }

    /// <summary>Takes the probe of a server that is down one step further, on the heartbeat thread
    /// (<see cref="ServerHealth.Recover"/>); once it answered, its connection joins the pool as the server is marked up.</summary>
    /// <returns>When the probe next needs the heartbeat.</returns>
    internal long Recover(long now)
    {
        long next = _health.Recover(now, out MemcachedConnection? answered, out bool flushed);
        if (answered is null)
        {
            return next;
        }

        lock (_gate)
        {
            if (_disposed.IsCancellationRequested)
            {
                answered.Break(new ObjectDisposedException(nameof(MemcachedClient)), MemcachedErrorKind.ConnectionBroken);
                return long.MaxValue;
            }

            _health.MarkUp(flushed);
            _connections[0] = answered;
        }

        _onStateChanged(this);
        return long.MaxValue;
    }

    /// <summary>The heartbeat ends: a probe under way leaves no connection behind.</summary>
    internal void StopRecovery() => _health.StopRecovery();

    private void ThrowIfDown(string operation)
    {
        ObjectDisposedException.ThrowIf(_disposed.IsCancellationRequested, typeof(MemcachedClient));
        if (_health.IsDown)
        {
            throw _health.DownError(operation);
        }
    }

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

        CloseBlocking();
    }
}
