using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Nodes;

// The node's connection pool: a live connection with a pipeline slot for each request, opened on demand and in the
// background, timed out by the client's heartbeat, dropped when it reports its break.
internal sealed partial class MemcachedNode
{
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
        if (TryTakeSlot(out MemcachedConnection? busy, out int dead) is { } free)
        {
            return free;
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

        throw ThrowHelper.QueueFull(Name, operation, _connections.Length, _settings.MaxInFlightPerConnection, _settings.OperationTimeout);
    }

    /// <summary>Takes a pipeline slot on the first live connection that has one, going round the pool from the next
    /// slot in turn (and opens the empty slots in the background once one is found); otherwise null, with the first
    /// live connection seen (<paramref name="busy"/>, all its slots taken) and the first empty or broken slot
    /// (<paramref name="dead"/>, -1 for none).</summary>
    private MemcachedConnection? TryTakeSlot(out MemcachedConnection? busy, out int dead)
    {
        int count = _connections.Length;
        int first = (int)((uint)Interlocked.Increment(ref _next) % (uint)count);
        busy = null;
        dead = -1;
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

        return null;
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
            BackgroundTask.ObserveFailure(task);
            return task;
        }
    }

    /// <summary>Opens the slot's connection and puts it in the pool, on the open's own thread as it ends: a
    /// continuation that runs there, not an <c>await</c> (whose continuation goes to the pool when the open ends while
    /// it registers), so callers waiting for a connection get it whatever the pool is doing (issue 30).</summary>
    private Task<MemcachedConnection> OpenCoreAsync(int slot) =>
        MemcachedConnection.OpenAsync(_endpoint, _settings, _onConnectionBroken, _disposed.Token).ContinueWith(
            static (open, state) =>
            {
                (MemcachedNode node, int slot) = ((MemcachedNode, int))state!;
                return node.Opened(open, slot);
            },
            (this, slot),
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);

    private MemcachedConnection Opened(Task<MemcachedConnection> open, int slot)
    {
        try
        {
            MemcachedConnection connection = open.GetAwaiter().GetResult();
            lock (_gate)
            {
                _opening[slot] = null;
                if (_health.IsDown || _disposed.IsCancellationRequested)
                {
                    connection.Break(new IOException("the server was marked down while the connection opened"), MemcachedErrorKind.ConnectionBroken);
                    throw _health.IsDown ? _health.DownError("connect") : ThrowHelper.ServerDown(Name, "connect", _settings.ServerDownInterval, _health.DownCause);
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
}
