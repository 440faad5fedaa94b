using System.Buffers;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>A connection's read side: a thread of its own reads what arrives (decrypted, over TLS) and hands it to the
/// request at the head of the connection's awaiting-reply FIFO until each reply is whole.</summary>
/// <remarks>
/// The thread always has a receive pending, so a server that closes or resets the connection while it is idle is
/// noticed at once. A reply is bounded before it is buffered: a value longer than the connection's limit is a protocol
/// error, refused before anything is allocated for it (<see cref="MetaReplyParser.RequiredLength"/>). Every way the read
/// side fails breaks the connection, with the cause <see cref="Failures"/> gives it.
/// </remarks>
internal sealed class ConnectionReader
{
    private const int ReadBufferBytes = 64 * 1024;

    private static readonly byte[] Unauthenticated = "CLIENT_ERROR unauthenticated\r\n"u8.ToArray();

    private readonly MemcachedConnection _connection;
    private readonly PolledSocket _socket;
    private readonly TlsFraming? _tls;
    private readonly ServerEndpoint _endpoint;
    private readonly int _maxReplyData;
    private readonly List<MemcachedRequest> _answered = [];
    private long _bytesReceived;

    internal ConnectionReader(MemcachedConnection connection, PolledSocket socket, TlsFraming? tls, ServerEndpoint endpoint, int maxReplyData)
    {
        _connection = connection;
        _socket = socket;
        _tls = tls;
        _endpoint = endpoint;
        _maxReplyData = maxReplyData;
    }

    /// <summary>Gets how many bytes were received (after TLS).</summary>
    internal long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>Starts the read thread.</summary>
    internal void Start() => MemcachedConnection.StartThread(ReadLoop, "read", _endpoint.Name);

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

                int read = _tls is null ? _socket.Receive(buffer.AsSpan(end)) : _tls.Read(buffer.AsSpan(end));
                if (read == 0)
                {
                    Fail(null);
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
        catch (Exception ex)
        {
            Fail(ex);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            _tls?.Dispose();
        }
    }

    /// <summary>Breaks the connection for what stopped the read side (null: the server closed it).</summary>
    private void Fail(Exception? error)
    {
        bool neverAnswered = _tls is null && BytesReceived == 0 && _connection.BytesSent > 0;
        (Exception cause, MemcachedErrorKind kind) = Failures.OfReadFailure(error, neverAnswered, _endpoint.Name, _connection.HeadOperation);
        _connection.Break(cause, kind);
    }

    /// <summary>Hands the unread bytes to the requests at the head of the FIFO, then publishes the results of those it
    /// completed; returns the new start.</summary>
    private int Dispatch(byte[] buffer, int start, int end)
    {
        try
        {
            return DispatchReplies(buffer, start, end);
        }
        finally
        {
            PublishAnswered();
        }
    }

    /// <summary>Publishes the results of the replies just read, once the batch that arrived is parsed: each caller's
    /// continuation is queued to the thread pool, never run on this thread.</summary>
    /// <remarks>
    /// After the batch rather than as each reply is parsed (which needs no list, and costs 22 B less per get): on 2 cores a
    /// caller woken mid-batch competes with this thread for the rest of it. Measured against that (3 alternating rounds,
    /// 1 connection): 1.08x the ops/s at 16 in flight, 0.89x at 128, so the published run (docs/benchmarks.md, "Run of
    /// 2026-11-25 (issue 25)") keeps this. One work item for the whole batch, whose continuations would then queue on that
    /// worker, was no faster at 16 in flight and 10% slower at 128.
    /// </remarks>
    private void PublishAnswered()
    {
        foreach (MemcachedRequest request in _answered)
        {
            request.Publish();
            request.ReleaseByConnection(); // the last this connection does with it
        }

        _answered.Clear();
    }

    private int DispatchReplies(byte[] buffer, int start, int end)
    {
        while (start < end)
        {
            MemcachedRequest head = _connection.PeekAwaiting()
                ?? throw new ProtocolViolationException($"{end - start} bytes arrived with no request awaiting a reply");

            bool done = Parse(head, buffer.AsSpan(start, end - start), _maxReplyData, _endpoint, out int consumed);
            start += consumed;
            if (done)
            {
                if (!_connection.Answered(head))
                {
                    throw new ObjectDisposedException(nameof(MemcachedConnection), "the connection broke while a reply was being read");
                }

                _answered.Add(head);
            }
            else if (consumed == 0)
            {
                break;
            }
        }

        return start;
    }

    /// <summary>The buffer is full: move the unread bytes to the front, or grow it to hold a large reply.</summary>
    /// <summary>Hands the unread bytes to the request awaiting the oldest reply; true once its whole reply is parsed.</summary>
    /// <exception cref="MemcachedException">The server requires authentication the connection does not have.</exception>
    /// <exception cref="ProtocolViolationException">The bytes cannot be its reply, or declare a value over the limit
    /// (refused before it is buffered).</exception>
    internal static bool Parse(MemcachedRequest head, ReadOnlySpan<byte> unread, int maxReplyData, ServerEndpoint endpoint, out int consumed)
    {
        if (unread[0] == (byte)'C' && unread.StartsWith(Unauthenticated))
        {
            // memcached -Y answers any command of a connection that has not authenticated so (1.6.18), and then no more
            // of what was pipelined: every request on the connection fails with the reason, and the server is marked down.
            throw ThrowHelper.AuthenticationRequired(endpoint.Name, head.Operation);
        }

        _ = MetaReplyParser.RequiredLength(unread, maxReplyData);
        return head.TryParse(unread, out consumed);
    }

    /// <summary>How large a full buffer holding <paramref name="unread"/> must grow: the whole reply when its line
    /// declares it, else one byte more.</summary>
    internal static int RoomNeeded(ReadOnlySpan<byte> unread, int maxReplyData) =>
        Math.Max(MetaReplyParser.RequiredLength(unread, maxReplyData), unread.Length + 1);

    private byte[] MakeRoom(byte[] buffer, ref int start, ref int end)
    {
        int unread = end - start;
        int needed = RoomNeeded(buffer.AsSpan(start, unread), _maxReplyData);
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
