using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>The socket under a connection: non-blocking, connected, read and written with plain system calls, and waited
/// on in <c>poll</c> on the calling thread, never through .NET's asynchronous socket engine.</summary>
/// <remarks>
/// Why: a socket that ever ran an asynchronous operation is registered with .NET's shared epoll thread for good, which
/// then wakes on every reply; and a blocking <c>Receive</c> parks its thread on that epoll thread (two thread switches per
/// wait, costly on these VMs: perf and strace, docs/benchmarks.md). Under load a non-blocking <c>recv</c> almost always
/// finds data, so a receive costs one system call, and the connection's loops never wait for the thread pool. TLS runs
/// over it through <see cref="TlsFraming"/>, so it keeps these properties.
/// </remarks>
internal sealed class PolledSocket : IDisposable
{
    /// <summary>The longest a wait sits in <c>poll</c> before it checks whether the socket was closed.</summary>
    private const int PollMicroseconds = 500_000;

    /// <summary>While opening, waits check the connect timeout this often.</summary>
    private const int OpeningPollMicroseconds = 20_000;

    private readonly Socket _socket;
    private CancellationToken _opening;
    private CancellationTokenSource? _openingTimeout;
    private long _openingDeadline;
    private volatile bool _closed;

    internal PolledSocket(AddressFamily family)
    {
        _socket = new Socket(family, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
    }

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

    /// <summary>The connect timeout, kept by the opening's own waits: at <paramref name="deadline"/> (a
    /// <see cref="Stopwatch"/> timestamp) a wait cancels <paramref name="timeout"/> itself. Not a timer: a timer's
    /// callback waits for a thread-pool thread, and a starved pool would hold the opening past its timeout (issue 30).</summary>
    internal void TimesOutAt(long deadline, CancellationTokenSource timeout)
    {
        _openingDeadline = deadline;
        _openingTimeout = timeout;
    }

    /// <summary>The connection is open: waits no longer honour the connect timeout.</summary>
    internal void Opened()
    {
        _opening = default;
        _openingTimeout = null;
    }

    /// <summary>Reads what has arrived, waiting in <c>poll</c> when nothing has; 0 when the peer closed the connection.</summary>
    internal int Receive(Span<byte> into)
    {
        int read;
        while (!TryReceive(into, out read))
        {
            Wait(SelectMode.SelectRead);
        }

        return read;
    }

    /// <summary>Reads what has arrived, waiting in <c>poll</c> until <paramref name="deadline"/> (a <see cref="Stopwatch"/>
    /// timestamp) when nothing has; 0 when the peer closed the connection.</summary>
    /// <exception cref="TimeoutException">Nothing arrived before the deadline.</exception>
    internal int ReceiveBefore(Span<byte> into, long deadline)
    {
        int read;
        while (!TryReceive(into, out read))
        {
            long left = deadline - Stopwatch.GetTimestamp();
            if (left <= 0)
            {
                throw new TimeoutException();
            }

            _socket.Poll((int)Math.Min(left * 1_000_000 / Stopwatch.Frequency, PollMicroseconds), SelectMode.SelectRead);
            ObjectDisposedException.ThrowIf(_closed, this);
        }

        return read;
    }

    /// <summary>Reads what has arrived without waiting; false when nothing has (0 read: the peer closed).</summary>
    private bool TryReceive(Span<byte> into, out int read)
    {
        read = _socket.Receive(into, SocketFlags.None, out SocketError error);
        if (error == SocketError.Success)
        {
            return true;
        }

        return error == SocketError.WouldBlock ? false : throw new SocketException((int)error);
    }

    /// <summary>Gets a value indicating whether the peer closed the connection while it was idle (readable, nothing to read).</summary>
    internal bool IsClosedByPeer => _socket.Poll(0, SelectMode.SelectRead) && _socket.Available == 0;

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

    /// <summary>Closes the socket (<see cref="CloseSocket"/>).</summary>
    public void Dispose() => CloseSocket();

    /// <summary>Blocks in <c>poll</c> until the socket is ready; bounded, so a close (which also shuts the socket down)
    /// and, while opening, the connect timeout are always seen.</summary>
    private void Wait(SelectMode mode)
    {
        CancellationToken opening = _opening;
        int period = opening.CanBeCanceled ? OpeningPollMicroseconds : PollMicroseconds;
        while (!_socket.Poll(period, mode))
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            if (_openingTimeout is { } timeout && Stopwatch.GetTimestamp() >= _openingDeadline)
            {
                timeout.Cancel();
            }

            opening.ThrowIfCancellationRequested();
        }
    }
}
