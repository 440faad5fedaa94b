using System.Buffers;
using System.Text;
using System.Threading.Tasks.Sources;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>One request in a connection's pipeline: it writes its command and parses its own reply.</summary>
/// <remarks>
/// The connection calls <see cref="Write"/> once, then hands every byte that arrives to the request at the head of its
/// FIFO until <see cref="TryParse"/> reports the reply complete. A request the caller cancelled stays in the FIFO
/// and still consumes its reply, so the connection never gets out of step; its result is simply dropped.
/// </remarks>
internal abstract class MemcachedRequest
{
    /// <summary>Gets or sets the server name, set when the request is routed; used in error messages.</summary>
    internal string Server { get; set; } = string.Empty;

    /// <summary>Gets or sets the opaque token the connection gave the request; its reply must echo it.</summary>
    internal uint Opaque { get; set; }

    /// <summary>Gets or sets the <see cref="System.Diagnostics.Stopwatch"/> timestamp when the request entered the awaiting-reply FIFO.</summary>
    internal long WrittenTimestamp { get; set; }

    /// <summary>Gets the operation name used in messages, metrics and spans (get, set, add, ...).</summary>
    internal abstract string Operation { get; }

    /// <summary>Gets how many keys the request carries (more than one for a batch).</summary>
    internal virtual int BatchSize => 1;

    /// <summary>Gets a value indicating whether <see cref="MemcachedClientOptions.OnServerFailure"/> applies: a server
    /// failure is then returned as the request's failure result under <see cref="ServerFailurePolicy.Miss"/>.</summary>
    internal virtual bool FollowsFailurePolicy => true;

    /// <summary>Gets the metrics outcome once the reply is parsed (hit, miss, stored, not_stored, ...).</summary>
    internal string Outcome { get; private protected set; } = "error";

    /// <summary>Gets a value indicating whether the caller already has a result (completed, failed or cancelled).</summary>
    internal abstract bool IsCompleted { get; }

    /// <summary>Writes the command bytes.</summary>
    internal abstract void Write(IBufferWriter<byte> writer);

    /// <summary>Consumes reply bytes; true when the whole reply has been consumed, and its result is then ready for
    /// <see cref="Publish"/>.</summary>
    /// <param name="buffer">The unread bytes.</param>
    /// <param name="consumed">How many bytes were consumed; 0 with false means more bytes are needed.</param>
    /// <exception cref="ProtocolViolationException">The bytes are not a reply to this request.</exception>
    internal abstract bool TryParse(ReadOnlySpan<byte> buffer, out int consumed);

    /// <summary>Fails the request (connection broken, timeout); no-op if it already completed.</summary>
    internal abstract void Fail(Exception exception);

    /// <summary>The client closed the request's connection (a timeout, the server marked down) after writing it, so its
    /// reply will never be read although the server may still run it: a read that may have won a key's recache right
    /// (<c>W</c>) keeps the key for <see cref="GetOrCreate.Wins"/>, which releases that win once the server is back.</summary>
    internal virtual void OnUnanswered()
    {
    }

    /// <summary>Hands the result of a whole reply (<see cref="TryParse"/> returned true) to the caller: its continuation is
    /// queued to the thread pool, never run here.</summary>
    internal abstract void Publish();

    /// <summary>The read side published the request (<see cref="Publish"/>) and holds it no more: a pooled request
    /// (<see cref="GetRequest"/>) goes back to its pool once its caller is done with it too.</summary>
    internal virtual void ReleaseByConnection()
    {
    }
}

/// <summary>A request whose caller awaits a <typeparamref name="TResult"/>: the request is itself what the caller awaits
/// (<see cref="IValueTaskSource{TResult}"/>), so a call allocates no task or completion source for it.</summary>
/// <remarks>A request is awaited once, by the node that sent it. It completes once: the first of <see cref="Publish"/>,
/// <see cref="Fail"/> and <see cref="Cancel"/> wins, and its continuation runs on the thread pool, never inline on the
/// connection's read thread, so no caller can stall it; a synchronous caller (<see cref="SyncCall"/>) runs it on its own
/// thread instead, the read thread only queueing it there.</remarks>
internal abstract class MemcachedRequest<TResult> : MemcachedRequest, IValueTaskSource<TResult>
{
    private ManualResetValueTaskSourceCore<TResult> _completion = new() { RunContinuationsAsynchronously = true };
    private int _completed;
    private TResult _result = default!;
    private Exception? _error;

    internal override bool IsCompleted => Volatile.Read(ref _completed) != 0;

    /// <summary>Gets what the call returns when its server fails and <see cref="ServerFailurePolicy.Miss"/> applies:
    /// a miss, false, null, or <see cref="MemcachedStoreResult.ServerFailure"/>; never an exception.</summary>
    internal virtual TResult FailureResult => default!;

    /// <summary>Instead of being awaited: <paramref name="onCompleted"/> runs on the thread that completes the request
    /// (the read thread, a break, a timeout), not on the thread pool; the result is then taken with
    /// <see cref="TryGetResult"/>. Only for the client's own waits whose continuation does next to nothing (the recovery
    /// probe's wakes the heartbeat): they must not wait for a starved pool, and nothing of a caller's may ever run on
    /// those threads. Call once, before the request is sent.</summary>
    internal void OnCompletedInline(Action onCompleted)
    {
        _completion.RunContinuationsAsynchronously = false;
        _completion.OnCompleted(static state => ((Action)state!)(), onCompleted, _completion.Version, ValueTaskSourceOnCompletedFlags.None);
    }

    /// <summary>Takes the result if the request has one (<see cref="OnCompletedInline"/>), without waiting.</summary>
    /// <exception cref="MemcachedException">The request failed.</exception>
    internal bool TryGetResult(out TResult result)
    {
        if (_completion.GetStatus(_completion.Version) == ValueTaskSourceStatus.Pending)
        {
            result = default!;
            return false;
        }

        result = _completion.GetResult(_completion.Version);
        return true;
    }

    /// <summary>What the caller awaits, once.</summary>
    internal ValueTask<TResult> AsValueTask() => new(this, _completion.Version);

    internal override void Fail(Exception exception)
    {
        if (Interlocked.Exchange(ref _completed, 1) == 0)
        {
            _completion.SetException(exception);
        }
    }

    internal override void Publish()
    {
        if (Interlocked.Exchange(ref _completed, 1) != 0)
        {
            if (_error is null)
            {
                OnUnclaimed(_result);
            }

            return;
        }

        if (_error is null)
        {
            _completion.SetResult(_result);
        }
        else
        {
            _completion.SetException(_error);
        }
    }

    /// <summary>The caller has the request's result and holds it no more (only after a result, never after an exception:
    /// a request that failed may still be referenced by its connection, and is left to the garbage collector).</summary>
    internal virtual void ReleaseByCaller()
    {
    }

    /// <summary>Ends the caller's wait with a <see cref="TaskCanceledException"/> for <paramref name="token"/>.</summary>
    internal void Cancel(CancellationToken token) => Fail(new TaskCanceledException(null, null, token));

    /// <summary>A reply was read whose caller had already gone (cancelled): what the reply gave that must not be lost
    /// (a lease read's win) is handed back here, on the read thread.</summary>
    private protected virtual void OnUnclaimed(TResult result)
    {
    }

    /// <summary>Makes a request that was answered and released by both its caller and its connection new again, for
    /// another call: a new version for what callers await, no result, and no reference to the last call's value.</summary>
    private protected void ResetForReuse()
    {
        _completion.Reset();
        _completion.RunContinuationsAsynchronously = true;
        _result = default!;
        _error = null;
        Outcome = "error";
        Server = string.Empty;
        Opaque = 0;
        WrittenTimestamp = 0;
        Volatile.Write(ref _completed, 0);
    }

    TResult IValueTaskSource<TResult>.GetResult(short token) => _completion.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<TResult>.GetStatus(short token) => _completion.GetStatus(token);

    void IValueTaskSource<TResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        if (SyncCall.Current is not { } sync)
        {
            _completion.OnCompleted(continuation, state, token, flags);
            return;
        }

        // A synchronous caller awaits on its own thread: the completing thread only hands it the continuation.
        // The reply may arrive between the awaiter's IsCompleted check and this registration: the completion source
        // then queues the hand-over to the thread pool, which a starved pool runs late (seconds, measured with 64
        // synchronous callers on pool threads). So once registered, the request looks again and, when complete, hands
        // the continuation over itself; the hand-over runs once, whichever comes first.
        _completion.RunContinuationsAsynchronously = false;
        object pending = sync.Pending(continuation, state);
        _completion.OnCompleted(SyncCall.PostToCaller, pending, token, flags);
        if (_completion.GetStatus(token) != ValueTaskSourceStatus.Pending)
        {
            SyncCall.PostToCaller(pending);
        }
    }

    /// <summary>The reply is read: its result waits for <see cref="Publish"/> (the read side publishes the results of a
    /// batch of replies together, once the batch is read).</summary>
    private protected void Complete(TResult result, string outcome)
    {
        Outcome = outcome;
        _result = result;
    }

    /// <summary>Fails the call with the error a <c>SERVER_ERROR</c>, <c>CLIENT_ERROR</c> or <c>ERROR</c> line means for it,
    /// classified once from the parsed code (<see cref="Failures.OfErrorReply"/>).</summary>
    private protected void CompleteWithError(MetaReplyCode code, ReadOnlySpan<byte> line)
    {
        Outcome = "error";
        _error = ErrorFor(Failures.OfErrorReply(code, line), Encoding.ASCII.GetString(line));
    }

    /// <summary>The exception an error reply means for this request; a store overrides it to say how large its value was.</summary>
    private protected virtual MemcachedException ErrorFor(MemcachedErrorKind kind, string line) => ThrowHelper.ErrorReply(Server, Operation, kind, line);
}
