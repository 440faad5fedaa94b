using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
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
/// <para>The socket is read and written in two places only (<see cref="SendPending"/>, <see cref="ReceiveSome"/>), and a
/// connection becomes usable only when <see cref="OpenAsync"/> returns: a TLS stream and an authentication exchange
/// (issue 20) slot in there, before the loops start.</para>
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The semaphore's and the event's wait handles are never created (AvailableWaitHandle and WaitHandle are not used), so they hold nothing to dispose; Break closes the socket.")]
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

    /// <summary>The loops use little stack: a small one keeps two threads per connection cheap.</summary>
    private const int LoopStackBytes = 256 * 1024;

    /// <summary>The longest a read thread waits in <c>poll</c> before it checks whether the connection broke.</summary>
    private const int PollMicroseconds = 500_000;

    private readonly Socket _socket;
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

    private MemcachedConnection(Socket socket, ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken)
    {
        _socket = socket;
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

    /// <summary>Resolves the host (every time: servers in containers change address) and connects, within the connect timeout.</summary>
    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings (timeouts, limits, resolver).</param>
    /// <param name="onBroken">Called once, from whichever thread found the break, when the connection breaks.</param>
    /// <param name="cancellationToken">Cancels the connect (the client is being disposed).</param>
    internal static async Task<MemcachedConnection> OpenAsync(ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken, CancellationToken cancellationToken)
    {
        TimeSpan timeout = settings.ConnectTimeout;
        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeoutSource.CancelAfter(timeout);
        Socket? socket = null;
        try
        {
            IPAddress[] addresses = IPAddress.TryParse(endpoint.Host, out IPAddress? literal)
                ? [literal]
                : await settings.HostResolver(endpoint.Host, timeoutSource.Token).ConfigureAwait(false);
            if (addresses.Length == 0)
            {
                throw new SocketException((int)SocketError.HostNotFound);
            }

            Exception? last = null;
            foreach (IPAddress address in addresses)
            {
                socket = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
                try
                {
                    await ConnectAsync(socket, new IPEndPoint(address, endpoint.Port), timeoutSource.Token).ConfigureAwait(false);
                    return new MemcachedConnection(socket, endpoint, settings, onBroken);
                }
                catch (SocketException ex)
                {
                    last = ex;
                    socket.Dispose();
                    socket = null;
                }
            }

            throw last!;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            socket?.Dispose();
            throw ThrowHelper.ConnectTimeout(endpoint.Name, "connect", timeout);
        }
        catch
        {
            socket?.Dispose();
            throw;
        }
    }

    /// <summary>Connects a non-blocking socket, waiting in <c>poll</c> on a thread of its own (at most until the token is cancelled).</summary>
    /// <remarks>Not <see cref="Socket.ConnectAsync(EndPoint, CancellationToken)"/>: a socket that ever ran an asynchronous
    /// operation is registered with .NET's shared epoll thread for good, which then wakes on every reply the read thread
    /// takes (measured with strace: one <c>epoll_wait</c> per receive, docs/benchmarks.md).</remarks>
    private static Task ConnectAsync(Socket socket, IPEndPoint remote, CancellationToken cancellationToken) =>
        Task.Factory.StartNew(
            () =>
            {
                try
                {
                    socket.Connect(remote);
                    return;
                }
                catch (SocketException ex) when (ex.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
                {
                }

                while (!socket.Poll(PollMicroseconds / 10, SelectMode.SelectWrite))
                {
                    cancellationToken.ThrowIfCancellationRequested();
                }

                if (socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error) is int error and not 0)
                {
                    throw new SocketException(error);
                }
            },
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

        MemcachedException error = ThrowHelper.Timeout(_server, head.Operation, timeout, count, Interlocked.Read(ref _bytesSent), Interlocked.Read(ref _bytesReceived));
        Break(error, MemcachedErrorKind.Timeout);
        return true;
    }

    /// <summary>Closes the connection for good and fails everything queued or awaiting a reply on it.</summary>
    /// <remarks>
    /// What each request gets depends on whether it was written, not on why the connection broke: a written request may
    /// have been applied, so it fails with <see cref="MemcachedErrorKind.ConnectionBroken"/> (the oldest one with the
    /// <see cref="MemcachedErrorKind.Timeout"/> that broke it, every one with the <see cref="MemcachedErrorKind.ProtocolError"/>
    /// that did); a request never written fails with <see cref="MemcachedErrorKind.ServerDown"/> when the server was
    /// marked down, and otherwise with <see cref="MemcachedErrorKind.ConnectionBroken"/> saying it was not sent.
    /// </remarks>
    internal void Break(Exception cause, MemcachedErrorKind kind)
    {
        if (Interlocked.CompareExchange(ref _breakCause, cause, null) is not null)
        {
            return;
        }

        try
        {
            _socket.Shutdown(SocketShutdown.Both); // wakes the read thread's poll at once
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }

        _socket.Dispose();

        MemcachedTelemetry.ConnectionClosed(_endpoint);
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
                MemcachedException { Kind: MemcachedErrorKind.ProtocolError } protocol => ThrowHelper.ForOperation(protocol, request.Operation),
                _ => ThrowHelper.ConnectionBroken(_server, request.Operation, cause),
            };
            request.Fail(error);
        }

        FailQueued();

        // Wake the write thread (it sees the break and ends) and the callers waiting for a slot on this connection: each
        // one that wakes finds it broken, passes its slot on (ReleaseSlot) and fails at once, instead of timing out as "queue full".
        _handoff.Set();
        ReleaseSlot();

        _onBroken(this, kind, cause);
    }

    private void FailQueued()
    {
        Exception cause = Volatile.Read(ref _breakCause)!;
        while (_queue.TryDequeue(out MemcachedRequest? queued))
        {
            queued.Fail(cause is MemcachedException { Kind: MemcachedErrorKind.ServerDown } down
                ? ThrowHelper.ForOperation(down, queued.Operation)
                : ThrowHelper.NotSent(_server, queued.Operation, cause));
        }
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
            if (_sendOffset < _sendBuffer.WrittenCount && !SendPending(blocking))
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
                request.WrittenTimestamp = Stopwatch.GetTimestamp();
                lock (_awaitingReply)
                {
                    if (IsBroken)
                    {
                        request.Fail(ThrowHelper.NotSent(_server, request.Operation, _breakCause));
                        throw new IOException("the connection broke while requests were being written");
                    }

                    _awaitingReply.Enqueue(request);
                }
            }
            while (_sendBuffer.WrittenCount < SendBatchBytes && _queue.TryDequeue(out request));

            sent += _sendBuffer.WrittenCount;
            Interlocked.Add(ref _bytesSent, _sendBuffer.WrittenCount);
            MemcachedTelemetry.RecordSent(_endpoint, _sendBuffer.WrittenCount);
        }
    }

    /// <summary>Sends the unsent part of the current batch; false when the socket would block and <paramref name="blocking"/> is false.</summary>
    private bool SendPending(bool blocking)
    {
        while (_sendOffset < _sendBuffer.WrittenCount)
        {
            int sent = _socket.Send(_sendBuffer.WrittenSpan[_sendOffset..], SocketFlags.None, out SocketError error);
            if (error == SocketError.WouldBlock)
            {
                if (!blocking)
                {
                    return false;
                }

                Wait(SelectMode.SelectWrite);
            }
            else if (error != SocketError.Success)
            {
                throw new SocketException((int)error);
            }

            _sendOffset += sent;
        }

        _sendOffset = 0;
        if (_sendBuffer.Capacity > 4 * SendBatchBytes)
        {
            _sendBuffer = new ArrayBufferWriter<byte>(SendBatchBytes);
        }
        else
        {
            _sendBuffer.ResetWrittenCount();
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
                    Break(new IOException($"{_server} closed the connection"), MemcachedErrorKind.ConnectionBroken);
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
            Break(ex, MemcachedErrorKind.ConnectionBroken);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Reads what has arrived, waiting in <c>poll</c> when nothing has.</summary>
    /// <remarks>
    /// The socket is non-blocking (<see cref="Socket.Blocking"/> false): a <c>recv</c> that finds data returns it at once,
    /// which under load is almost every time, so a receive costs one system call; only when nothing is there does the
    /// thread wait in <c>poll</c> on the socket itself. A blocking <c>Receive</c> would instead park this thread on .NET's
    /// shared epoll thread and be woken from it: two thread switches per wait, expensive on these VMs (perf, docs/benchmarks.md).
    /// </remarks>
    private int ReceiveSome(Span<byte> into)
    {
        while (true)
        {
            int read = _socket.Receive(into, SocketFlags.None, out SocketError error);
            if (error == SocketError.Success)
            {
                return read;
            }

            if (error != SocketError.WouldBlock)
            {
                throw new SocketException((int)error);
            }

            Wait(SelectMode.SelectRead);
        }
    }

    /// <summary>Blocks in <c>poll</c> until the socket is ready; bounded, so a break (which also shuts the socket down) is
    /// always seen.</summary>
    private void Wait(SelectMode mode)
    {
        while (!_socket.Poll(PollMicroseconds, mode))
        {
            ObjectDisposedException.ThrowIf(IsBroken, this);
        }
    }

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
