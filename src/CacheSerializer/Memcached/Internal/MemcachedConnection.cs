using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal;

/// <summary>One pipelined TCP connection: requests are written in batches by whoever owns the write side (a caller, or
/// the connection's write thread when the socket is full), and a read thread completes the head of the FIFO of requests
/// awaiting a reply.</summary>
/// <remarks>
/// <para>Nothing here waits for the thread pool (StackExchange.Redis runs its socket loops on its own threads for the
/// same reason): the read loop and the write thread are threads of their own, and a caller sends on its own thread,
/// without blocking, only when the write side is free. A pool starved by blocking callers or a burst of work therefore
/// never stops replies from being read or requests from being written, and never turns into timeouts. Completions are
/// handed to the pool (<see cref="MemcachedRequest{TResult}"/> completes its task asynchronously), so no caller's code
/// ever runs on these threads.</para>
/// <para>A connection is used until it breaks, and a broken connection is never used again (<see cref="Break"/> is safe
/// to call twice): every request queued or awaiting a reply on it fails, the socket is closed, and its owner hears of it
/// through the callback given at open (it drops the connection and opens a new one on demand). The read thread always
/// has a receive pending, so a server that closes or resets the connection while it is idle is noticed at once.</para>
/// <para>The socket (<see cref="PolledSocket"/>) is read and written in two places only (<see cref="SendPending"/>,
/// <see cref="ReceiveSome"/>), and a connection becomes usable only when <see cref="OpenAsync"/> returns, after the TLS
/// handshake and the authentication exchange when they are configured (<see cref="ConnectionOpening"/>). Over TLS
/// everything else is shared with plaintext: requests are batched into the same buffer, which the owner of the write side
/// encrypts (<see cref="Seal"/>) into TLS records it then sends with the same non-blocking or waiting send; the read thread
/// reads through the <see cref="SslStream"/>, whose blocking read waits in the same <c>poll</c> on the same thread.</para>
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The semaphore's and the event's wait handles are never created (AvailableWaitHandle and WaitHandle are not used), so they hold nothing to dispose; Break closes the socket, and the read thread disposes the TLS stream when it ends.")]
internal sealed class MemcachedConnection
{
    /// <summary>Sends are batched up to this many bytes; a request larger than it goes alone.</summary>
    private const int SendBatchBytes = 64 * 1024;
    private const int ReadBufferBytes = 64 * 1024;

    /// <summary>Above this many requests in flight on the connection, a caller hands its request to the write thread
    /// instead of sending it itself: with few in flight there is nothing to batch and waking a thread costs more than the
    /// send; with many, the write thread gathers them into fewer, larger sends. Chosen by A/B runs of client-vs-memcaslap
    /// (0, 16, unbounded: 16 was best or equal at both 16 and 128 callers; docs/benchmarks.md).</summary>
    private const int InlineMaxInFlight = 16;

    /// <summary>How much a caller sends on its own thread before it hands the rest of the queue to the write thread.</summary>
    private const int InlineSendBytes = 4 * SendBatchBytes;

    /// <summary>Over TLS, the most bytes of whole requests encrypted into one record (a larger request goes alone): under
    /// memcached's 16 KB read buffer and TLS's 16 KB record, with room to spare (see <see cref="WriteRecords"/>).</summary>
    private const int TlsRecordBytes = 15 * 1024;

    /// <summary>The loops use little stack: a small one keeps two threads per connection cheap.</summary>
    private const int LoopStackBytes = 256 * 1024;

    private static readonly byte[] Unauthenticated = "CLIENT_ERROR unauthenticated\r\n"u8.ToArray();

    private readonly PolledSocket _io;

    // TLS only: the stream the read thread reads and the write side's owner encrypts into, and the lock that keeps its
    // disposal (by the read thread, when it ends) from racing an encryption.
    private readonly SslStream? _tls;
    private readonly Lock _tlsGate = new();
    private readonly List<int>? _requestEnds;
    private bool _tlsDisposed;
    private readonly ServerEndpoint _endpoint;
    private readonly string _server;
    private readonly int _maxInFlight;
    private readonly int _maxReplyData;
    private readonly Action<MemcachedConnection, MemcachedErrorKind, Exception> _onBroken;
    private readonly SemaphoreSlim _slots;

    // The write side (see Send): requests whose slot was taken wait here; whoever owns the write side (_writeOwner = 1),
    // a caller or the write thread, writes them into _sendBuffer and sends it.
    private readonly ConcurrentQueue<MemcachedRequest> _queue = new();
    private ArrayBufferWriter<byte> _sendBuffer = new(SendBatchBytes);
    private int _sendOffset;
    private int _writeOwner;

    // Wakes the write thread when a caller hands it the write side. No spinning before it sleeps: a spin is sched_yield
    // system calls, which on these 2-core VMs cost more than they save (strace, docs/benchmarks.md).
    private readonly ManualResetEventSlim _handoff = new(false, spinCount: 0);
    private readonly Queue<MemcachedRequest> _awaitingReply = new();
    private Exception? _breakCause;
    private uint _nextOpaque;
    private long _bytesSent;
    private long _bytesReceived;

    private MemcachedConnection(PolledSocket io, SslStream? tls, ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken)
    {
        _io = io;
        _tls = tls;
        _requestEnds = tls is null ? null : [];
        _endpoint = endpoint;
        _server = endpoint.Name;
        _maxInFlight = settings.MaxInFlightPerConnection;
        _maxReplyData = settings.MaxValueSize + MetaReplyParser.ReplyMargin;
        _onBroken = onBroken;
        _slots = new SemaphoreSlim(_maxInFlight, _maxInFlight);
        MemcachedTelemetry.ConnectionOpened(endpoint);
        StartLoop(WriteLoop, "write");
        StartLoop(ReadLoop, "read");
    }

    internal bool IsBroken => Volatile.Read(ref _breakCause) is not null;

    internal int InFlight => _maxInFlight - _slots.CurrentCount;

    /// <summary>Resolves the host (every time: servers in containers change address), connects, and runs the TLS handshake
    /// and the authentication exchange when configured, all within the connect timeout.</summary>
    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings (timeouts, limits, resolver, TLS, credentials).</param>
    /// <param name="onBroken">Called once, from whichever thread found the break, when the connection breaks.</param>
    /// <param name="cancellationToken">Cancels the connect (the client is being disposed).</param>
    /// <exception cref="MemcachedException">The connect timed out, TLS or authentication failed.</exception>
    /// <exception cref="SocketException">The connect failed (refused, unreachable, name not resolved).</exception>
    internal static async Task<MemcachedConnection> OpenAsync(ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken, CancellationToken cancellationToken)
    {
        TimeSpan timeout = settings.ConnectTimeout;
        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeoutSource.CancelAfter(timeout);
        var opening = new ConnectionOpening(endpoint, settings);
        try
        {
            IPAddress[] addresses = IPAddress.TryParse(endpoint.Host, out IPAddress? literal)
                ? [literal]
                : await settings.HostResolver(endpoint.Host, timeoutSource.Token).ConfigureAwait(false);
            if (addresses.Length == 0)
            {
                throw new SocketException((int)SocketError.HostNotFound);
            }

            SocketException? last = null;
            foreach (IPAddress address in addresses)
            {
                var io = new PolledSocket(address.AddressFamily);
                try
                {
                    SslStream? tls = await OnOwnThread(opening, io, new IPEndPoint(address, endpoint.Port), timeoutSource.Token).ConfigureAwait(false);
                    return new MemcachedConnection(io, tls, endpoint, settings, onBroken);
                }
                catch (SocketException ex)
                {
                    last = ex;
                    io.CloseSocket();
                }
                catch
                {
                    io.CloseSocket();
                    throw;
                }
            }

            throw last!;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw ThrowHelper.ConnectTimeout(endpoint.Name, "connect", timeout, opening.Stage);
        }
    }

    /// <summary>Runs the opening on a thread of its own, waiting in <c>poll</c> (at most until the token is cancelled).</summary>
    /// <remarks>Not <see cref="Socket.ConnectAsync(EndPoint, CancellationToken)"/> nor <see cref="SslStream.AuthenticateAsClientAsync(SslClientAuthenticationOptions, CancellationToken)"/>:
    /// a socket that ever ran an asynchronous operation is registered with .NET's shared epoll thread for good, which
    /// then wakes on every reply the read thread takes (measured with strace: one <c>epoll_wait</c> per receive,
    /// docs/benchmarks.md); and the opening must not wait for the thread pool either.</remarks>
    private static Task<SslStream?> OnOwnThread(ConnectionOpening opening, PolledSocket io, IPEndPoint remote, CancellationToken cancellationToken) =>
        Task.Factory.StartNew(
            () => opening.Run(io, remote, cancellationToken),
            cancellationToken,
            TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach,
            TaskScheduler.Default);

    /// <summary>Takes a pipeline slot without waiting.</summary>
    internal bool TryTakeSlot() => !IsBroken && _slots.Wait(0);

    /// <summary>Waits for a pipeline slot (back-pressure); false when none freed up within the timeout.</summary>
    internal Task<bool> WaitForSlotAsync(TimeSpan timeout, CancellationToken cancellationToken) => _slots.WaitAsync(timeout, cancellationToken);

    /// <summary>Gives back a slot taken for a request that will not be sent (the connection broke meanwhile).</summary>
    internal void ReleaseSlot()
    {
        try
        {
            _slots.Release();
        }
        catch (SemaphoreFullException)
        {
        }
    }

    /// <summary>Queues a request whose slot was taken and sends it: on the caller's thread when the write side is free,
    /// else by whoever is writing (it takes everything queued).</summary>
    /// <remarks>
    /// The caller that finds the write side free, with at most <see cref="InlineMaxInFlight"/> requests in flight, sends
    /// the queue itself with a non-blocking send: no thread is woken, and callers that arrive while it sends join its next
    /// batch. When more are in flight, when the socket will not take more (its buffer is full), or when the caller has sent
    /// <see cref="InlineSendBytes"/>, the write side goes to the write thread, which batches and waits in <c>poll</c>: a
    /// caller never blocks on the socket, and a starved thread pool never holds up a write.
    /// </remarks>
    internal void Send(MemcachedRequest request)
    {
        _queue.Enqueue(request);
        if (IsBroken)
        {
            // Break may have drained the queue before this request entered it: drain again, so none is stranded.
            FailQueued();
            return;
        }

        WriteInline();
    }

    /// <summary>Takes the write side if it is free and sends what is queued, on this thread when few requests are in
    /// flight, else by handing it to the write thread; loops so that a request queued just before the release is not
    /// left behind.</summary>
    private void WriteInline()
    {
        while (!_queue.IsEmpty && Interlocked.CompareExchange(ref _writeOwner, 1, 0) == 0)
        {
            if (InFlight > InlineMaxInFlight)
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
                Break(ex, MemcachedErrorKind.ConnectionBroken);
                return;
            }

            if (!done)
            {
                _handoff.Set(); // the write thread owns the write side now, and releases it when the queue is empty
                return;
            }

            Volatile.Write(ref _writeOwner, 0);
        }
    }

    /// <summary>Breaks the connection if the request at the head of the FIFO has waited longer than the timeout.</summary>
    internal bool CheckTimeout(long now, TimeSpan timeout)
    {
        MemcachedRequest? head;
        int count;
        lock (_awaitingReply)
        {
            if (!_awaitingReply.TryPeek(out head))
            {
                return false;
            }

            count = _awaitingReply.Count;
        }

        if (Stopwatch.GetElapsedTime(head.WrittenTimestamp, now) <= timeout)
        {
            return false;
        }

        MemcachedException error = ThrowHelper.Timeout(_server, head.Operation, timeout, count, Interlocked.Read(ref _bytesSent), Interlocked.Read(ref _bytesReceived), plaintext: _tls is null);
        Break(error, MemcachedErrorKind.Timeout);
        return true;
    }

    /// <summary>Closes the connection for good and fails everything queued or awaiting a reply on it.</summary>
    /// <remarks>
    /// What each request gets depends on whether it was written, not on why the connection broke: a written request may
    /// have been applied, so it fails with <see cref="MemcachedErrorKind.ConnectionBroken"/> (the oldest one with the
    /// <see cref="MemcachedErrorKind.Timeout"/> that broke it, every one with the <see cref="MemcachedErrorKind.ProtocolError"/>
    /// or <see cref="MemcachedErrorKind.AuthenticationRequired"/> that did: the server refused them all); a request never
    /// written fails with <see cref="MemcachedErrorKind.ServerDown"/> when the server was marked down, with the refusal
    /// when the server refused the connection, and otherwise with <see cref="MemcachedErrorKind.ConnectionBroken"/>
    /// saying it was not sent.
    /// </remarks>
    internal void Break(Exception cause, MemcachedErrorKind kind)
    {
        if (Interlocked.CompareExchange(ref _breakCause, cause, null) is not null)
        {
            return;
        }

        _io.CloseSocket(); // wakes the read thread's poll at once

        MemcachedTelemetry.ConnectionClosed(_endpoint);

        // The node first (a break that marks the server down publishes it there), then the callers: a caller told of
        // the break runs on at once on another core (continuations are asynchronous), and its next call must find the
        // server down, failing fast with ServerDown, rather than open a new connection to the server that just failed.
        _onBroken(this, kind, cause);

        List<MemcachedRequest> written;
        lock (_awaitingReply)
        {
            written = [.. _awaitingReply];
            _awaitingReply.Clear();
        }

        for (int i = 0; i < written.Count; i++)
        {
            MemcachedRequest request = written[i];
            Exception error = cause switch
            {
                MemcachedException { Kind: MemcachedErrorKind.Timeout } timeout when i == 0 => timeout,
                MemcachedException { Kind: MemcachedErrorKind.ProtocolError or MemcachedErrorKind.AuthenticationRequired } refused => ThrowHelper.ForOperation(refused, request.Operation),
                _ => ThrowHelper.ConnectionBroken(_server, request.Operation, cause),
            };
            request.Fail(error);
        }

        FailQueued();

        // Wake the write thread (it sees the break and ends) and the callers waiting for a slot on this connection: each
        // one that wakes finds it broken, passes its slot on (ReleaseSlot) and fails at once, instead of timing out as "queue full".
        _handoff.Set();
        ReleaseSlot();
    }

    private void FailQueued()
    {
        while (_queue.TryDequeue(out MemcachedRequest? queued))
        {
            queued.Fail(NotSentError(queued.Operation));
        }
    }

    /// <summary>Broken connections only: the failure of a request that was never written on it, wherever it was stopped
    /// (queued, taken by the writer, or waiting for a slot). <see cref="MemcachedErrorKind.ServerDown"/> or the server's
    /// refusal (TLS, authentication) when that is why it broke, so every caller of a refused connection hears the same
    /// reason; otherwise <see cref="MemcachedErrorKind.ConnectionBroken"/>, saying it was not applied.</summary>
    internal MemcachedException NotSentError(string operation)
    {
        Exception? cause = Volatile.Read(ref _breakCause);
        return cause is MemcachedException { Kind: var kind } reason && (kind == MemcachedErrorKind.ServerDown || MemcachedNode.IsRefusal(kind))
            ? ThrowHelper.ForOperation(reason, operation)
            : ThrowHelper.NotSent(_server, operation, cause);
    }

    private void StartLoop(ThreadStart loop, string role)
    {
        var thread = new Thread(loop, LoopStackBytes)
        {
            IsBackground = true,
            Name = $"memcached {role} {_server}",
        };
        thread.Start();
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
                if (IsBroken)
                {
                    return;
                }

                WriteQueued(blocking: true, int.MaxValue);
                Volatile.Write(ref _writeOwner, 0);
                WriteInline(); // requests queued while the side was being released
            }
        }
        catch (Exception ex)
        {
            // Socket errors, a disposed socket, or a request that failed to write itself: the stream is unusable.
            Break(ex, MemcachedErrorKind.ConnectionBroken);
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
            if (_sendOffset < Outgoing.WrittenCount && !SendPending(blocking))
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
                    _slots.Release();
                    continue;
                }

                request.Opaque = unchecked(++_nextOpaque);
                request.Write(_sendBuffer);
                _requestEnds?.Add(_sendBuffer.WrittenCount);
                request.WrittenTimestamp = Stopwatch.GetTimestamp();
                lock (_awaitingReply)
                {
                    if (IsBroken)
                    {
                        // Taken from the queue before Break drained it and not yet in the FIFO Break failed: it fails here,
                        // as the queued ones did (a refused connection reports the refusal, not a broken connection).
                        request.Fail(NotSentError(request.Operation));
                        throw new IOException("the connection broke while requests were being written");
                    }

                    _awaitingReply.Enqueue(request);
                }
            }
            while (_sendBuffer.WrittenCount < SendBatchBytes && _queue.TryDequeue(out request));

            sent += _sendBuffer.WrittenCount;
            Interlocked.Add(ref _bytesSent, _sendBuffer.WrittenCount);
            MemcachedTelemetry.RecordSent(_endpoint, _sendBuffer.WrittenCount);
            if (_tls is not null)
            {
                Seal();
            }
        }
    }

    /// <summary>What the write side sends: the batch itself, or over TLS the records it was encrypted into.</summary>
    private ArrayBufferWriter<byte> Outgoing => _io.Records ?? _sendBuffer;

    /// <summary>Owner of the write side, over TLS only: encrypts the batch into TLS records (<see cref="PolledSocket.Records"/>)
    /// and empties it.</summary>
    private void Seal()
    {
        lock (_tlsGate)
        {
            ObjectDisposedException.ThrowIf(_tlsDisposed, this);
            _io.Seal(static connection => connection.WriteRecords(), this);
        }

        _requestEnds!.Clear();
        ResetSendBuffer();
    }

    /// <summary>Encrypts the batch so that each TLS record ends where a request ends and holds at most
    /// <see cref="TlsRecordBytes"/> (a larger request alone, split by <see cref="SslStream"/> from its start).</summary>
    /// <remarks>
    /// memcached before 1.6.39 (commit 96e05b75, "tls: fix potential hang when pipelining sets") never checks
    /// <c>SSL_pending</c>: when it reads less than a whole record (its 16 KB read buffer is partly full, or it reads just
    /// the rest of a value and the record goes on with the next requests), OpenSSL keeps the rest decrypted, the socket is
    /// empty, and memcached sleeps until more bytes arrive, so pipelined requests hang until the operation timeout (seen
    /// with 500 concurrent sets on memcached 1.6.18, Debian's). Records of whole requests, each at most what its read
    /// buffer holds once the previous record's requests are done, are always read whole.
    /// </remarks>
    private void WriteRecords()
    {
        ReadOnlySpan<byte> batch = _sendBuffer.WrittenSpan;
        int start = 0;
        int end = 0;
        foreach (int requestEnd in _requestEnds!)
        {
            if (requestEnd - start > TlsRecordBytes && end > start)
            {
                _tls!.Write(batch[start..end]);
                start = end;
            }

            end = requestEnd;
        }

        if (end > start)
        {
            _tls!.Write(batch[start..end]);
        }
    }

    private void ResetSendBuffer()
    {
        if (_sendBuffer.Capacity > 4 * SendBatchBytes)
        {
            _sendBuffer = new ArrayBufferWriter<byte>(SendBatchBytes);
        }
        else
        {
            _sendBuffer.ResetWrittenCount();
        }
    }

    /// <summary>Sends the unsent part of the current batch (or its TLS records); false when the socket would block and
    /// <paramref name="blocking"/> is false.</summary>
    private bool SendPending(bool blocking)
    {
        ArrayBufferWriter<byte> outgoing = Outgoing;
        while (_sendOffset < outgoing.WrittenCount)
        {
            int sent = _io.Send(outgoing.WrittenSpan[_sendOffset..], blocking);
            if (sent == 0)
            {
                return false;
            }

            _sendOffset += sent;
        }

        _sendOffset = 0;
        if (_io.Records is null)
        {
            ResetSendBuffer();
        }
        else
        {
            _io.RecordsSent();
        }

        return true;
    }

    private void ReadLoop()
    {
        byte[] buffer = ArrayPool<byte>.Shared.Rent(ReadBufferBytes);
        int start = 0;
        int end = 0;
        try
        {
            while (true)
            {
                if (end == buffer.Length)
                {
                    buffer = MakeRoom(buffer, ref start, ref end);
                }

                int read = ReceiveSome(buffer.AsSpan(end));
                if (read == 0)
                {
                    BreakOnReadFailure(null);
                    return;
                }

                end += read;
                Interlocked.Add(ref _bytesReceived, read);
                MemcachedTelemetry.RecordReceived(_endpoint, read);
                start = Dispatch(buffer, start, end);
                if (start == end)
                {
                    start = end = 0;
                    if (buffer.Length > ReadBufferBytes)
                    {
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = ArrayPool<byte>.Shared.Rent(ReadBufferBytes);
                    }
                }
            }
        }
        catch (MemcachedException ex)
        {
            Break(ex, ex.Kind); // a server that requires authentication the client was not given
        }
        catch (ProtocolViolationException ex)
        {
            string operation;
            lock (_awaitingReply)
            {
                operation = _awaitingReply.TryPeek(out MemcachedRequest? head) ? head.Operation : "read";
            }

            Break(ThrowHelper.ProtocolError(_server, operation, ex.Message), MemcachedErrorKind.ProtocolError);
        }
        catch (Exception ex)
        {
            BreakOnReadFailure(ex);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            DisposeTls();
        }
    }

    /// <summary>The read side failed or the server closed the connection. A plaintext connection the server closed or
    /// reset before answering anything it was sent is a server that refuses it, most likely one that requires TLS
    /// (memcached -Z 1.6.18 resets it): the break then says so, and counts as a failed connect, which marks the server
    /// down (logged once) instead of failing call after call on new connections.</summary>
    private void BreakOnReadFailure(Exception? error)
    {
        bool neverAnswered = _tls is null && Interlocked.Read(ref _bytesReceived) == 0 && Interlocked.Read(ref _bytesSent) > 0;
        if (neverAnswered && !IsBroken)
        {
            Break(new IOException($"{_server} closed the connection before answering anything ({error?.Message ?? "end of stream"}); {ThrowHelper.PlaintextToTlsHint}", error), MemcachedErrorKind.ConnectFailed);
        }
        else
        {
            Break(error ?? new IOException($"{_server} closed the connection"), MemcachedErrorKind.ConnectionBroken);
        }
    }

    /// <summary>The read thread, once it ends (the connection is broken): frees the TLS session, never while the write
    /// side's owner is encrypting with it.</summary>
    private void DisposeTls()
    {
        if (_tls is null)
        {
            return;
        }

        lock (_tlsGate)
        {
            _tlsDisposed = true;
            _tls.Dispose();
        }
    }

    /// <summary>Reads what has arrived (decrypted, over TLS), waiting in <c>poll</c> when nothing has (<see cref="PolledSocket.Receive"/>).</summary>
    private int ReceiveSome(Span<byte> into) => _tls is null ? _io.Receive(into) : _tls.Read(into);

    /// <summary>Hands the unread bytes to the requests at the head of the FIFO; returns the new start.</summary>
    private int Dispatch(byte[] buffer, int start, int end)
    {
        while (start < end)
        {
            MemcachedRequest? head;
            lock (_awaitingReply)
            {
                _awaitingReply.TryPeek(out head);
            }

            if (head is null)
            {
                throw new ProtocolViolationException($"{end - start} bytes arrived with no request awaiting a reply");
            }

            ReadOnlySpan<byte> unread = buffer.AsSpan(start, end - start);
            if (unread[0] == (byte)'C' && unread.StartsWith(Unauthenticated))
            {
                // memcached -Y answers any command of a connection that has not authenticated so (1.6.18), and then no more
                // of what was pipelined: every request on the connection fails with the reason, and the server is marked down.
                throw ThrowHelper.AuthenticationRequired(_server, head.Operation);
            }

            _ = MetaReplyParser.RequiredLength(unread, _maxReplyData); // refuses an oversized value before it is buffered
            bool done = head.TryParse(unread, out int consumed);
            start += consumed;
            if (done)
            {
                lock (_awaitingReply)
                {
                    _awaitingReply.Dequeue();
                }

                _slots.Release();
            }
            else if (consumed == 0)
            {
                break;
            }
        }

        return start;
    }

    /// <summary>The buffer is full: move the unread bytes to the front, or grow it to hold a large reply.</summary>
    private byte[] MakeRoom(byte[] buffer, ref int start, ref int end)
    {
        int unread = end - start;
        int needed = Math.Max(MetaReplyParser.RequiredLength(buffer.AsSpan(start, unread), _maxReplyData), unread + 1);
        if (needed <= buffer.Length && start > 0)
        {
            Buffer.BlockCopy(buffer, start, buffer, 0, unread);
            start = 0;
            end = unread;
            return buffer;
        }

        byte[] larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, buffer.Length * 2));
        Buffer.BlockCopy(buffer, start, larger, 0, unread);
        ArrayPool<byte>.Shared.Return(buffer);
        start = 0;
        end = unread;
        return larger;
    }
}
