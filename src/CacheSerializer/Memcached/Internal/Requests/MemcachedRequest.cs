using System.Buffers;

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

    /// <summary>Gets the operation name used in messages and metrics (get, set, add, ...).</summary>
    internal abstract string Operation { get; }

    /// <summary>Gets the metrics outcome once the reply is parsed (hit, miss, stored, not_stored, ...).</summary>
    internal string Outcome { get; private protected set; } = "error";

    /// <summary>Gets a value indicating whether the caller already has a result (completed, failed or cancelled).</summary>
    internal abstract bool IsCompleted { get; }

    /// <summary>Writes the command bytes.</summary>
    internal abstract void Write(IBufferWriter<byte> writer);

    /// <summary>Consumes reply bytes; true when the whole reply has been consumed.</summary>
    /// <param name="buffer">The unread bytes.</param>
    /// <param name="consumed">How many bytes were consumed; 0 with false means more bytes are needed.</param>
    /// <exception cref="ProtocolViolationException">The bytes are not a reply to this request.</exception>
    internal abstract bool TryParse(ReadOnlySpan<byte> buffer, out int consumed);

    /// <summary>Fails the request (connection broken, timeout); no-op if it already completed.</summary>
    internal abstract void Fail(Exception exception);
}

/// <summary>A request whose caller awaits a <typeparamref name="TResult"/>.</summary>
internal abstract class MemcachedRequest<TResult> : MemcachedRequest
{
    // Continuations run on the thread pool, never inline on the connection's read loop, so no caller can stall it.
    private readonly TaskCompletionSource<TResult> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    internal Task<TResult> Task => _completion.Task;

    internal override bool IsCompleted => _completion.Task.IsCompleted;

    internal override void Fail(Exception exception) => _completion.TrySetException(exception);

    internal void Cancel(CancellationToken token) => _completion.TrySetCanceled(token);

    private protected void Complete(TResult result, string outcome)
    {
        Outcome = outcome;
        _completion.TrySetResult(result);
    }

    private protected void CompleteWithError(string line)
    {
        Outcome = "error";
        _completion.TrySetException(ThrowHelper.ErrorReply(Server, Operation, line));
    }

    private protected void CompleteWithException(Exception exception)
    {
        Outcome = "error";
        _completion.TrySetException(exception);
    }
}
