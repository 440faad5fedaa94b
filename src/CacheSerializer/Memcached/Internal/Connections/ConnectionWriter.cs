using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>A connection's write side: requests are queued, and whoever owns the write side (a caller, or the write
/// thread when the socket is full or many requests are in flight) writes them into one buffer and sends it in batches.</summary>
/// <remarks>
/// <para>A caller that finds the write side free, with at most <see cref="InlineMaxInFlight"/> requests in flight, sends
/// the queue itself with a non-blocking send: no thread is woken, and callers that arrive while it sends join its next
/// batch. When more are in flight, when the socket will not take more (its buffer is full), or when the caller has sent
/// <see cref="InlineSendBytes"/>, the write side goes to the write thread, which batches and waits in <c>poll</c>: a
/// caller never blocks on the socket, and a starved thread pool never holds up a write.</para>
/// <para>Each request is given its opaque and entered in the connection's awaiting-reply FIFO as it is written, so the
/// read side finds replies in the order the server gets the requests. Over TLS the batch is sealed into records that end
/// at request boundaries (<see cref="TlsFraming"/>) and the records are sent instead.</para>
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The event's wait handle is never created (WaitHandle is not used), so it holds nothing to dispose.")]
internal sealed class ConnectionWriter
{
    /// <summary>Sends are batched up to this many bytes; a request larger than it goes alone.</summary>
    private const int SendBatchBytes = 64 * 1024;

    /// <summary>Above this many requests in flight on the connection, a caller hands its request to the write thread
    /// instead of sending it itself: with few in flight there is nothing to batch and waking a thread costs more than the
    /// send; with many, the write thread gathers them into fewer, larger sends. Chosen by A/B runs of the client benchmark
    /// (0, 16, unbounded: 16 was best or equal at both 16 and 128 callers; docs/benchmarks.md).</summary>
    private const int InlineMaxInFlight = 16;

    /// <summary>How much a caller sends on its own thread before it hands the rest of the queue to the write thread.</summary>
    private const int InlineSendBytes = 4 * SendBatchBytes;

    private readonly MemcachedConnection _connection;
    private readonly PolledSocket _socket;
    private readonly TlsFraming? _tls;
    private readonly ServerEndpoint _endpoint;

    // Requests whose slot was taken wait here; whoever owns the write side (_owner = 1) writes them into _batch and sends it.
    private readonly ConcurrentQueue<MemcachedRequest> _queue = new();
    private ArrayBufferWriter<byte> _batch = new(SendBatchBytes);
    private int _sentOfBatch;
    private int _owner;

    // Wakes the write thread when a caller hands it the write side. No spinning before it sleeps: a spin is sched_yield
    // system calls, which on these 2-core VMs cost more than they save (strace, docs/benchmarks.md).
    private readonly ManualResetEventSlim _handoff = new(false, spinCount: 0);
    private uint _nextOpaque;
    private long _bytesSent;

    internal ConnectionWriter(MemcachedConnection connection, PolledSocket socket, TlsFraming? tls, ServerEndpoint endpoint)
    {
        _connection = connection;
        _socket = socket;
        _tls = tls;
        _endpoint = endpoint;
    }

    /// <summary>Gets how many bytes were sent (before TLS).</summary>
    internal long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>What the write side sends: the batch itself, or over TLS the records it was sealed into.</summary>
    private ArrayBufferWriter<byte> Outgoing => _tls?.Records ?? _batch;

    /// <summary>Starts the write thread.</summary>
    internal void Start() => MemcachedConnection.StartThread(WriteLoop, "write", _endpoint.Name);

    /// <summary>Queues a request whose slot was taken and sends it: on the caller's thread when the write side is free,
    /// else by whoever is writing (it takes everything queued).</summary>
    internal void Send(MemcachedRequest request)
    {
        _queue.Enqueue(request);
        if (_connection.IsBroken)
        {
            // The break may have drained the queue before this request entered it: drain again, so none is stranded.
            FailQueued();
            return;
        }

        WriteInline();
    }

    /// <summary>The connection broke: fails what is queued and wakes the write thread, which sees the break and ends.</summary>
    internal void Stop()
    {
        FailQueued();
        _handoff.Set();
    }

    /// <summary>Takes the write side if it is free and sends what is queued, on this thread when few requests are in
    /// flight, else by handing it to the write thread; loops so that a request queued just before the release is not
    /// left behind.</summary>
    private void WriteInline()
    {
        while (!_queue.IsEmpty && Interlocked.CompareExchange(ref _owner, 1, 0) == 0)
        {
            if (_connection.InFlight > InlineMaxInFlight)
            {
                _handoff.Set();
                return;
            }

            bool done;
            try
            {
                done = WriteQueued(blocking: false, InlineSendBytes);
            }
            catch (Exception ex)
            {
                _connection.Break(ex, MemcachedErrorKind.ConnectionBroken);
                return;
            }

            if (!done)
            {
                _handoff.Set(); // the write thread owns the write side now, and releases it when the queue is empty
                return;
            }

            Volatile.Write(ref _owner, 0);
        }
    }

    /// <summary>The write thread: sleeps until a caller hands it the write side, then sends the rest, waiting in
    /// <c>poll</c> while the socket's buffer is full, until the queue is empty.</summary>
    private void WriteLoop()
    {
        try
        {
            while (true)
            {
                _handoff.Wait();
                _handoff.Reset();
                if (_connection.IsBroken)
                {
                    return;
                }

                WriteQueued(blocking: true, int.MaxValue);
                Volatile.Write(ref _owner, 0);
                WriteInline(); // requests queued while the side was being released
            }
        }
        catch (Exception ex)
        {
            // Socket errors, a disposed socket, or a request that failed to write itself: the stream is unusable.
            _connection.Break(ex, MemcachedErrorKind.ConnectionBroken);
        }
    }

    /// <summary>Owner of the write side only: sends what is left of the last batch, then batches and sends the queue.</summary>
    /// <param name="blocking">Whether to wait in <c>poll</c> when the socket's buffer is full (the write thread) or return false (a caller).</param>
    /// <param name="budget">How many bytes to send before returning false while requests are still queued.</param>
    /// <returns>True when everything queued was sent; false when bytes or requests are left for the write thread.</returns>
    private bool WriteQueued(bool blocking, int budget)
    {
        int sent = 0;
        while (true)
        {
            if (_sentOfBatch < Outgoing.WrittenCount && !SendPending(blocking))
            {
                return false;
            }

            if (sent >= budget)
            {
                return _queue.IsEmpty; // over a caller's budget: what is still queued goes to the write thread
            }

            if (!_queue.TryDequeue(out MemcachedRequest? request))
            {
                return true;
            }

            do
            {
                if (request.IsCompleted)
                {
                    // Cancelled before a byte of it was written: drop it, the server never hears of it.
                    _connection.ReleaseSlot();
                    continue;
                }

                request.Opaque = unchecked(++_nextOpaque);
                request.Write(_batch);
                _tls?.RequestEnded(_batch.WrittenCount);
                request.WrittenTimestamp = Stopwatch.GetTimestamp();
                if (!_connection.AwaitReply(request))
                {
                    // Taken from the queue before the break drained it and not yet in the FIFO the break failed: it fails
                    // here, as the queued ones did (a refused connection reports the refusal, not a broken connection).
                    request.Fail(_connection.NotSentError(request.Operation));
                    throw new IOException("the connection broke while requests were being written");
                }
            }
            while (_batch.WrittenCount < SendBatchBytes && _queue.TryDequeue(out request));

            sent += _batch.WrittenCount;
            Interlocked.Add(ref _bytesSent, _batch.WrittenCount);
            MemcachedTelemetry.RecordSent(_endpoint, _batch.WrittenCount);
            if (_tls is not null)
            {
                _tls.Seal(_batch);
                ResetBatch();
            }
        }
    }

    private void ResetBatch()
    {
        if (_batch.Capacity > 4 * SendBatchBytes)
        {
            _batch = new ArrayBufferWriter<byte>(SendBatchBytes);
        }
        else
        {
            _batch.ResetWrittenCount();
        }
    }

    /// <summary>Sends the unsent part of the current batch (or its TLS records); false when the socket would block and
    /// <paramref name="blocking"/> is false.</summary>
    private bool SendPending(bool blocking)
    {
        ArrayBufferWriter<byte> outgoing = Outgoing;
        while (_sentOfBatch < outgoing.WrittenCount)
        {
            int sent = _socket.Send(outgoing.WrittenSpan[_sentOfBatch..], blocking);
            if (sent == 0)
            {
                return false;
            }

            _sentOfBatch += sent;
        }

        _sentOfBatch = 0;
        if (_tls is null)
        {
            ResetBatch();
        }
        else
        {
            _tls.RecordsSent();
        }

        return true;
    }

    private void FailQueued()
    {
        while (_queue.TryDequeue(out MemcachedRequest? queued))
        {
            queued.Fail(_connection.NotSentError(queued.Operation));
        }
    }
}
