using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal;

/// <summary>One server: its small pool of pipelined connections and its health (up, or down until a background probe succeeds).</summary>
internal sealed partial class MemcachedNode : IDisposable
{
    private readonly ServerEndpoint _endpoint;
    private readonly ClientSettings _settings;
    private readonly ILogger _logger;
    private readonly MemcachedConnection?[] _connections;
    private readonly Task<MemcachedConnection>?[] _opening;
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _disposed = new();
    private int _next;
    private volatile bool _down;
    private long _retryAtTimestamp;
    private Exception? _downCause;

    internal MemcachedNode(ServerEndpoint endpoint, ClientSettings settings, ILogger logger)
    {
        _endpoint = endpoint;
        _settings = settings;
        _logger = logger;
        _connections = new MemcachedConnection?[settings.ConnectionsPerServer];
        _opening = new Task<MemcachedConnection>?[settings.ConnectionsPerServer];
    }

    internal string Name => _endpoint.Name;

    internal bool IsDown => _down;

    /// <summary>Returns a live connection with a pipeline slot taken for the caller; fails fast while the server is down.</summary>
    internal async ValueTask<MemcachedConnection> AcquireAsync(string operation, CancellationToken cancellationToken)
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
            return retryIfBroken ? null : throw ThrowHelper.ConnectionBroken(Name, operation, null);
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

    /// <summary>A connection broke: a timeout marks the server down; a close or reset only drops the connection
    /// (the next request reconnects, and a refused connect marks the server down).</summary>
    internal void OnConnectionBroken(MemcachedConnection connection, MemcachedErrorKind kind, Exception cause)
    {
        for (int i = 0; i < _connections.Length; i++)
        {
            Interlocked.CompareExchange(ref _connections[i], null, connection);
        }

        if (kind == MemcachedErrorKind.Timeout)
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

            _down = true;
            _downCause = cause;
            _retryAtTimestamp = Stopwatch.GetTimestamp() + (long)(_settings.ServerDownInterval.TotalSeconds * Stopwatch.Frequency);
        }

        MemcachedMetrics.RecordServerDown(Name);
        LogServerDown(_logger, Name, _settings.ServerDownInterval.TotalMilliseconds, cause.Message);
        MemcachedException downError = ThrowHelper.ServerDown(Name, "pending", _settings.ServerDownInterval, cause);
        for (int i = 0; i < _connections.Length; i++)
        {
            Interlocked.Exchange(ref _connections[i], null)?.Break(downError, MemcachedErrorKind.ServerDown);
        }

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
            TimeSpan remaining = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), Interlocked.Read(ref _retryAtTimestamp));
            throw ThrowHelper.ServerDown(Name, operation, remaining, _downCause);
        }
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
            MemcachedConnection connection = await MemcachedConnection.OpenAsync(
                this, _endpoint, _settings, _disposed.Token).ConfigureAwait(false);
            lock (_gate)
            {
                _opening[slot] = null;
                if (_down || _disposed.IsCancellationRequested)
                {
                    connection.Break(new IOException("the server was marked down while the connection opened"), MemcachedErrorKind.ConnectionBroken);
                    throw ThrowHelper.ServerDown(Name, "connect", _settings.ServerDownInterval, _downCause);
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

    private async Task ProbeUntilUpAsync()
    {
        CancellationToken token = _disposed.Token;
        while (!token.IsCancellationRequested)
        {
            MemcachedConnection? connection = null;
            try
            {
                await Task.Delay(_settings.ServerDownInterval, token).ConfigureAwait(false);
                connection = await MemcachedConnection.OpenAsync(
                    this, _endpoint, _settings, token).ConfigureAwait(false);
                if (!connection.TryTakeSlot())
                {
                    throw new IOException("the probe could not take a pipeline slot");
                }

                TextRequest probe = TextRequest.Noop();
                probe.Server = Name;
                connection.Send(probe);
                await probe.Task.WaitAsync(_settings.OperationTimeout, token).ConfigureAwait(false);
                lock (_gate)
                {
                    _connections[0] = connection;
                    _down = false;
                    _downCause = null;
                }

                LogServerUp(_logger, Name);
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

    [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "memcached server {Server} marked down for {IntervalMs} ms: {Reason}")]
    private static partial void LogServerDown(ILogger logger, string server, double intervalMs, string reason);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "memcached server {Server} is back up")]
    private static partial void LogServerUp(ILogger logger, string server);

    [LoggerMessage(EventId = 3, Level = LogLevel.Debug, Message = "memcached server {Server} is still down: {Reason}")]
    private static partial void LogProbeFailed(ILogger logger, string server, string reason);
}
