using System.Buffers;
using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>
/// A plaintext connection a synchronous caller uses alone, one request at a time, with no thread of its own: the caller
/// writes its request and reads the reply itself, so its only wait is the kernel waking it when the reply arrives (one
/// context switch a call, where a reply on a shared connection reaches its caller through the read thread and a second
/// wake-up: docs/migrating-from-enyim.md, "Synchronous calls").
/// </summary>
/// <remarks>A node keeps the idle ones (<see cref="Nodes.MemcachedNode"/>); a failure of any kind closes the
/// connection, as a break closes a shared one.</remarks>
internal sealed class BlockingConnection : IDisposable
{
    private const int ReadBufferBytes = 16 * 1024;

    /// <summary>An idle connection older than this is checked for a close by the server before it is used.</summary>
    private const long IdleCheckMilliseconds = 50;

    private readonly PolledSocket _socket;
    private readonly ServerEndpoint _endpoint;
    private readonly int _maxReplyData;
    private readonly ArrayBufferWriter<byte> _outgoing = new(4096);
    private byte[] _incoming = new byte[ReadBufferBytes];
    private long _idleSince = Environment.TickCount64;
    private long _received;
    private uint _nextOpaque;

    private BlockingConnection(PolledSocket socket, ServerEndpoint endpoint, int maxReplyData)
    {
        _socket = socket;
        _endpoint = endpoint;
        _maxReplyData = maxReplyData;
        MemcachedTelemetry.ConnectionOpened(endpoint);
    }

    /// <summary>Opens one on the calling thread, within the connect timeout.</summary>
    /// <exception cref="MemcachedException">The connect failed (<see cref="MemcachedErrorKind.ConnectFailed"/>) or was refused.</exception>
    internal static BlockingConnection Open(ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken) =>
        new(MemcachedConnection.OpenPlaintext(endpoint, settings, cancellationToken), endpoint, settings.MaxReplyData);

    /// <summary>Gets a value indicating whether the server closed the connection while it was idle (checked only after a
    /// idle 50 ms or more: a close noticed only by the next request would fail it).</summary>
    internal bool ClosedWhileIdle => Environment.TickCount64 - _idleSince >= IdleCheckMilliseconds && _socket.IsClosedByPeer;

    /// <summary>Writes the request, reads its reply and leaves the request answered (its result published, or its error
    /// reply): the caller's <c>await</c> then completes at once.</summary>
    /// <exception cref="MemcachedException">Nothing came back within <paramref name="timeout"/> (<see cref="MemcachedErrorKind.Timeout"/>),
    /// the connection broke (<see cref="MemcachedErrorKind.ConnectionBroken"/>, or a refusal), or the reply was not one
    /// (<see cref="MemcachedErrorKind.ProtocolError"/>): the connection is unusable, dispose it.</exception>
    internal void Execute(MemcachedRequest request, TimeSpan timeout)
    {
        bool written = false;
        try
        {
            request.Opaque = unchecked(++_nextOpaque);
            _outgoing.ResetWrittenCount();
            request.Write(_outgoing);
            request.WrittenTimestamp = Stopwatch.GetTimestamp();
            for (ReadOnlySpan<byte> left = _outgoing.WrittenSpan; !left.IsEmpty;)
            {
                int sent = _socket.Send(left, blocking: true);
                written = true;
                left = left[sent..];
            }

            MemcachedTelemetry.RecordSent(_endpoint, _outgoing.WrittenCount);
            ReadReply(request, request.WrittenTimestamp + (long)(timeout.TotalSeconds * Stopwatch.Frequency));
            _idleSince = Environment.TickCount64;
        }
        catch (TimeoutException)
        {
            throw ThrowHelper.Timeout(_endpoint.Name, request.Operation, timeout, 1, _outgoing.WrittenCount, _received, plaintext: true);
        }
        catch (Exception ex) when (ex is not MemcachedException)
        {
            (Exception cause, MemcachedErrorKind kind) = Failures.OfReadFailure(ex is EndOfStreamException ? null : ex, false, _endpoint.Name, request.Operation);
            throw kind == MemcachedErrorKind.ProtocolError ? (MemcachedException)cause
                : written ? ThrowHelper.ConnectionBroken(_endpoint.Name, request.Operation, cause)
                : ThrowHelper.NotSent(_endpoint.Name, request.Operation, cause);
        }
    }

    public void Dispose()
    {
        _socket.CloseSocket();
        MemcachedTelemetry.ConnectionClosed(_endpoint);
    }

    /// <summary>Reads until the request has parsed its whole reply; nothing may follow it.</summary>
    private void ReadReply(MemcachedRequest request, long deadline)
    {
        int start = 0;
        int end = 0;
        while (true)
        {
            if (end == _incoming.Length)
            {
                MakeRoom(ref start, ref end);
            }

            int read = _socket.ReceiveBefore(_incoming.AsSpan(end), deadline);
            if (read == 0)
            {
                throw new EndOfStreamException();
            }

            end += read;
            _received += read;
            MemcachedTelemetry.RecordReceived(_endpoint, read);
            while (start < end)
            {
                bool done = ConnectionReader.Parse(request, _incoming.AsSpan(start, end - start), _maxReplyData, _endpoint, out int consumed);
                start += consumed;
                if (done)
                {
                    if (start != end)
                    {
                        throw new ProtocolViolationException($"{end - start} bytes arrived with no request awaiting a reply");
                    }

                    return;
                }

                if (consumed == 0)
                {
                    break;
                }
            }

            if (start == end)
            {
                start = end = 0;
            }
        }
    }

    private void MakeRoom(ref int start, ref int end)
    {
        int unread = end - start;
        int needed = ConnectionReader.RoomNeeded(_incoming.AsSpan(start, unread), _maxReplyData);
        byte[] target = needed <= _incoming.Length ? _incoming : new byte[Math.Max(needed, _incoming.Length * 2)];
        Buffer.BlockCopy(_incoming, start, target, 0, unread);
        _incoming = target;
        start = 0;
        end = unread;
    }
}
