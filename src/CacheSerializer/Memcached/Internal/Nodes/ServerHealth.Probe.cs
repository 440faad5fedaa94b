using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Nodes;

// The probe of a server that is down: a step at a time, on the heartbeat thread, never waiting for the thread pool.
internal sealed partial class ServerHealth
{
    /// <summary>Drives the probe of a server that is down, on the heartbeat thread (and only there): every
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
    /// <param name="answered">The probe's connection once the server answered (the node installs it and calls
    /// <see cref="MarkUp"/>); otherwise null.</param>
    /// <param name="flushed">Whether the probe that answered flushed the server.</param>
    /// <returns>When the probe next needs the heartbeat (<see cref="long.MaxValue"/>: only when woken, or at its
    /// period).</returns>
    internal long Recover(long now, out MemcachedConnection? answered, out bool flushed)
    {
        answered = null;
        flushed = false;
        if (!_down || _disposed.IsCancellationRequested)
        {
            return long.MaxValue;
        }

        try
        {
            if (_probeRequest is { } request)
            {
                return AwaitProbeReply(request, now, out answered, out flushed);
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

            opening = MemcachedConnection.OpenAsync(_endpoint, _settings, _onConnectionBroken, _disposed);
            _probeOpening = opening;

            // Run by the thread that ends the open (its own), never queued to the pool; inline if it already ended.
            _ = opening.ContinueWith(static (_, wake) => ((Action)wake!)(), _wake, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
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
        probe.OnCompletedInline(_wake);
        _probeRequest = probe;
        _probeDeadline = now + (long)(_settings.OperationTimeout.TotalSeconds * Stopwatch.Frequency);
        connection.Send(probe);
        return _probeDeadline;
    }

    /// <summary>Waits (without blocking) for the probe's reply within the operation timeout; on success the server
    /// answered, and its connection is handed to the node.</summary>
    private long AwaitProbeReply(TextRequest request, long now, out MemcachedConnection? answered, out bool flushed)
    {
        answered = null;
        flushed = false;
        if (!request.TryGetResult(out _)) // the probe's failure (an error reply, a break) fails it
        {
            return now < _probeDeadline
                ? _probeDeadline
                : throw new TimeoutException($"no reply to the probe's {request.Operation} within {_settings.OperationTimeout.TotalMilliseconds:F0} ms");
        }

        answered = _probeConnection!;
        flushed = request.Operation == "flush_all";
        _probeRequest = null;
        _probeConnection = null;
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
}
