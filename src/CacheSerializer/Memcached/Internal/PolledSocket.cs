using System.Buffers;
using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.Memcached.Internal;

/// <summary>The socket under a connection: non-blocking, connected, read and written with plain system calls, and waited
/// on in <c>poll</c> on the calling thread, never through .NET's asynchronous socket engine.</summary>
/// <remarks>
/// <para>Why: a socket that ever ran an asynchronous operation is registered with .NET's shared epoll thread for good,
/// which then wakes on every reply; and a blocking <c>Receive</c> parks its thread on that epoll thread (two thread
/// switches per wait, costly on these VMs: perf and strace, docs/benchmarks.md). Under load a non-blocking <c>recv</c>
/// almost always finds data, so a receive costs one system call, and the connection's loops never wait for the thread pool.</para>
/// <para>It is also the <see cref="Stream"/> an <see cref="System.Net.Security.SslStream"/> runs over, so TLS keeps these
/// properties: the read thread's blocking TLS read waits in the same <c>poll</c>. While the connection opens, writes go
/// straight to the socket (the handshake); once it is open, the TLS records a write produces are kept in
/// <see cref="Records"/>, and the owner of the connection's write side sends them with <see cref="Send"/>, non-blocking
/// or waiting, exactly as it sends plaintext.</para>
/// </remarks>
internal sealed class PolledSocket : Stream
{
    /// <summary>The longest a wait sits in <c>poll</c> before it checks whether the socket was closed.</summary>
    private const int PollMicroseconds = 500_000;

    /// <summary>While opening, waits check the connect timeout this often.</summary>
    private const int OpeningPollMicroseconds = 20_000;

    private const int RecordsBytes = 80 * 1024;

    private readonly Socket _socket;
    private CancellationToken _opening;
    private volatile bool _closed;
    private int _sealingThread;

    internal PolledSocket(AddressFamily family)
    {
        _socket = new Socket(family, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
    }

    /// <summary>Gets the TLS records waiting to be sent, once a TLS connection is open; null for plaintext.</summary>
    internal ArrayBufferWriter<byte>? Records { get; private set; }

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    /// <summary>Connects, waiting in <c>poll</c>; waits until the connection is open honour <paramref name="opening"/>.</summary>
    /// <exception cref="SocketException">The connect failed (refused, unreachable).</exception>
    /// <exception cref="OperationCanceledException">The token was cancelled (the connect timeout).</exception>
    internal void Connect(IPEndPoint remote, CancellationToken opening)
    {
        _opening = opening;
        try
        {
            _socket.Connect(remote);
            return;
        }
        catch (SocketException ex) when (ex.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
        {
        }

        Wait(SelectMode.SelectWrite);
        if (_socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error) is int error and not 0)
        {
            throw new SocketException(error);
        }
    }

    /// <summary>The connection is open: waits no longer honour the connect timeout, and with <paramref name="tls"/> the
    /// records of later writes are kept in <see cref="Records"/> instead of being sent.</summary>
    internal void Opened(bool tls)
    {
        _opening = default;
        Records = tls ? new ArrayBufferWriter<byte>(RecordsBytes) : null;
    }

    /// <summary>Reads what has arrived, waiting in <c>poll</c> when nothing has; 0 when the peer closed the connection.</summary>
    internal int Receive(Span<byte> into)
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

    /// <summary>Sends what the socket takes now; with <paramref name="blocking"/> waits in <c>poll</c> until it takes
    /// at least one byte, else returns 0 when its buffer is full.</summary>
    internal int Send(ReadOnlySpan<byte> data, bool blocking)
    {
        while (true)
        {
            int sent = _socket.Send(data, SocketFlags.None, out SocketError error);
            if (error == SocketError.Success)
            {
                return sent;
            }

            if (error != SocketError.WouldBlock)
            {
                throw new SocketException((int)error);
            }

            if (!blocking)
            {
                return 0;
            }

            Wait(SelectMode.SelectWrite);
        }
    }

    /// <summary>Runs a TLS write (<paramref name="seal"/>) on this thread, its records appended to <see cref="Records"/>.
    /// Only the owner of the connection's write side calls it.</summary>
    internal void Seal<TState>(Action<TState> seal, TState state)
    {
        Volatile.Write(ref _sealingThread, Environment.CurrentManagedThreadId);
        try
        {
            seal(state);
        }
        finally
        {
            Volatile.Write(ref _sealingThread, 0);
        }
    }

    /// <summary>Empties <see cref="Records"/> once sent, shrinking it after a burst of large values.</summary>
    internal void RecordsSent()
    {
        if (Records!.Capacity > 4 * RecordsBytes)
        {
            Records = new ArrayBufferWriter<byte>(RecordsBytes);
        }
        else
        {
            Records.ResetWrittenCount();
        }
    }

    /// <summary>Shuts the socket down and closes it: a wait in <c>poll</c> on another thread wakes and throws
    /// <see cref="ObjectDisposedException"/>. Safe to call twice.</summary>
    internal void CloseSocket()
    {
        _closed = true;
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }

        _socket.Dispose();
    }

    public override int Read(byte[] buffer, int offset, int count) => Receive(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer) => Receive(buffer);

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (Records is null)
        {
            // Opening (the handshake, the authentication exchange): straight to the socket.
            while (!buffer.IsEmpty)
            {
                buffer = buffer[Send(buffer, blocking: true)..];
            }

            return;
        }

        if (Volatile.Read(ref _sealingThread) != Environment.CurrentManagedThreadId)
        {
            // A write from the read thread: the server started a TLS 1.2 renegotiation or asked for a TLS 1.3 key update,
            // whose answer would interleave with the write side's records. memcached never does; the connection breaks.
            throw new IOException("the server asked for a TLS renegotiation or key update, which the client does not support");
        }

        Records.Write(buffer);
    }

    // The client only ever uses SslStream's synchronous calls, which call these synchronously; an asynchronous call would
    // move a socket loop onto the thread pool, so it is refused loudly rather than served.
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => throw new NotSupportedException();

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) => throw new NotSupportedException();

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => throw new NotSupportedException();

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) => throw new NotSupportedException();

    public override void Flush()
    {
    }

    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            CloseSocket();
        }

        base.Dispose(disposing);
    }

    /// <summary>Blocks in <c>poll</c> until the socket is ready; bounded, so a close (which also shuts the socket down)
    /// and, while opening, the connect timeout are always seen.</summary>
    private void Wait(SelectMode mode)
    {
        CancellationToken opening = _opening;
        int period = opening.CanBeCanceled ? OpeningPollMicroseconds : PollMicroseconds;
        while (!_socket.Poll(period, mode))
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            opening.ThrowIfCancellationRequested();
        }
    }
}
