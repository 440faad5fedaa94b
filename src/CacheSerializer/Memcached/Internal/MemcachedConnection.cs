using System.Buffers;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Threading.Channels;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal;

/// <summary>One pipelined TCP connection: a write loop that batches queued requests into sends, and a read loop that
/// completes the head of the FIFO of requests awaiting a reply.</summary>
/// <remarks>
/// A connection is used until it breaks, and a broken connection is never used again (<see cref="Break"/> is safe to
/// call twice): every request queued or awaiting a reply on it fails, the socket is closed, and the node opens a new one.
/// The read loop always has a receive pending, so a server that closes or resets the connection while it is idle
/// (restart, idle timeout) is noticed at once, not by the next store.
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The semaphore's wait handle is never created (AvailableWaitHandle is not used), so it holds nothing to dispose; Break closes the socket.")]
internal sealed class MemcachedConnection
{
    /// <summary>Sends are batched up to this many bytes; a request larger than it goes alone.</summary>
    private const int SendBatchBytes = 64 * 1024;
    private const int ReadBufferBytes = 64 * 1024;

    private readonly Socket _socket;
    private readonly MemcachedNode _node;
    private readonly string _server;
    private readonly int _maxInFlight;
    private readonly SemaphoreSlim _slots;
    // Callers never run the write loop inline: measured against memcaslap (docs/benchmarks.md), letting the write loop
    // wake on its own thread batches more requests per send and was 1.3-2.5x faster at 16 concurrent callers.
    private readonly Channel<MemcachedRequest> _queue = Channel.CreateUnbounded<MemcachedRequest>(
        new UnboundedChannelOptions { SingleReader = false, AllowSynchronousContinuations = false }); // Break drains it too

    private readonly Queue<MemcachedRequest> _awaitingReply = new();
    private int _broken;
    private uint _nextOpaque;
    private long _bytesSent;
    private long _bytesReceived;

    private MemcachedConnection(Socket socket, MemcachedNode node, int maxInFlight)
    {
        _socket = socket;
        _node = node;
        _server = node.Name;
        _maxInFlight = maxInFlight;
        _slots = new SemaphoreSlim(maxInFlight, maxInFlight);
        MemcachedMetrics.ConnectionOpened(_server);
        _ = Task.Run(WriteLoopAsync);
        _ = Task.Run(ReadLoopAsync);
    }

    internal bool IsBroken => Volatile.Read(ref _broken) != 0;

    internal int InFlight => _maxInFlight - _slots.CurrentCount;

    /// <summary>Resolves the host (every time: servers in containers change address) and connects, within the connect timeout.</summary>
    internal static async Task<MemcachedConnection> OpenAsync(MemcachedNode node, ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken)
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
                socket = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                try
                {
                    await socket.ConnectAsync(new IPEndPoint(address, endpoint.Port), timeoutSource.Token).ConfigureAwait(false);
                    return new MemcachedConnection(socket, node, settings.MaxInFlightPerConnection);
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
            throw ThrowHelper.ConnectTimeout(node.Name, "connect", timeout);
        }
        catch
        {
            socket?.Dispose();
            throw;
        }
    }

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

    /// <summary>Queues a request whose slot was taken; the write loop sends it.</summary>
    internal void Send(MemcachedRequest request)
    {
        if (IsBroken || !_queue.Writer.TryWrite(request))
        {
            request.Fail(ThrowHelper.ConnectionBroken(_server, request.Operation, null));
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
    internal void Break(Exception cause, MemcachedErrorKind kind)
    {
        if (Interlocked.Exchange(ref _broken, 1) != 0)
        {
            return;
        }

        try
        {
            _socket.Dispose();
        }
        catch (ObjectDisposedException)
        {
        }

        MemcachedMetrics.ConnectionClosed(_server);
        _queue.Writer.TryComplete();
        var failed = new List<MemcachedRequest>();
        lock (_awaitingReply)
        {
            failed.AddRange(_awaitingReply);
            _awaitingReply.Clear();
        }

        while (_queue.Reader.TryRead(out MemcachedRequest? queued))
        {
            failed.Add(queued);
        }

        for (int i = 0; i < failed.Count; i++)
        {
            MemcachedRequest request = failed[i];
            Exception error = cause switch
            {
                MemcachedException { Kind: MemcachedErrorKind.Timeout } timeout when i == 0 => timeout,
                MemcachedException { Kind: MemcachedErrorKind.ProtocolError or MemcachedErrorKind.ServerDown } known
                    => ThrowHelper.ForOperation(known, request.Operation),
                _ => ThrowHelper.ConnectionBroken(_server, request.Operation, cause),
            };
            request.Fail(error);
        }

        // Wake callers waiting for a slot on this connection: each one that wakes finds it broken, passes its slot on
        // (ReleaseSlot) and fails at once, instead of timing out as "queue full".
        ReleaseSlot();

        _node.OnConnectionBroken(this, kind, cause);
    }

    private async Task WriteLoopAsync()
    {
        var buffer = new ArrayBufferWriter<byte>(SendBatchBytes);
        ChannelReader<MemcachedRequest> reader = _queue.Reader;
        try
        {
            while (await reader.WaitToReadAsync().ConfigureAwait(false))
            {
                while (buffer.WrittenCount < SendBatchBytes && reader.TryRead(out MemcachedRequest? request))
                {
                    if (request.IsCompleted)
                    {
                        // Cancelled before a byte of it was written: drop it, the server never hears of it.
                        _slots.Release();
                        continue;
                    }

                    request.Opaque = unchecked(++_nextOpaque);
                    request.Write(buffer);
                    request.WrittenTimestamp = Stopwatch.GetTimestamp();
                    lock (_awaitingReply)
                    {
                        if (IsBroken)
                        {
                            request.Fail(ThrowHelper.ConnectionBroken(_server, request.Operation, null));
                            return;
                        }

                        _awaitingReply.Enqueue(request);
                    }
                }

                if (buffer.WrittenCount > 0)
                {
                    ReadOnlyMemory<byte> pending = buffer.WrittenMemory;
                    while (!pending.IsEmpty)
                    {
                        int sent = await _socket.SendAsync(pending, SocketFlags.None).ConfigureAwait(false);
                        pending = pending[sent..];
                    }

                    Interlocked.Add(ref _bytesSent, buffer.WrittenCount);
                    MemcachedMetrics.RecordSent(_server, buffer.WrittenCount);
                    if (buffer.Capacity > 4 * SendBatchBytes)
                    {
                        buffer = new ArrayBufferWriter<byte>(SendBatchBytes);
                    }
                    else
                    {
                        buffer.ResetWrittenCount();
                    }
                }
            }
        }
        catch (Exception ex)
        {
            // Socket errors, a disposed socket, or a request that failed to write itself: the stream is unusable.
            Break(ex, MemcachedErrorKind.ConnectionBroken);
        }
    }

    private async Task ReadLoopAsync()
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

                int read = await _socket.ReceiveAsync(buffer.AsMemory(end), SocketFlags.None).ConfigureAwait(false);
                if (read == 0)
                {
                    Break(new IOException($"{_server} closed the connection"), MemcachedErrorKind.ConnectionBroken);
                    return;
                }

                end += read;
                Interlocked.Add(ref _bytesReceived, read);
                MemcachedMetrics.RecordReceived(_server, read);
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

            bool done = head.TryParse(buffer.AsSpan(start, end - start), out int consumed);
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
    private static byte[] MakeRoom(byte[] buffer, ref int start, ref int end)
    {
        int unread = end - start;
        int needed = Math.Max(MetaReplyParser.RequiredLength(buffer.AsSpan(start, unread)), unread + 1);
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
