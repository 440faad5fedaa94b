using System.Buffers;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>A <see cref="PolledSocket"/> as a <see cref="Stream"/>: what an <see cref="System.Net.Security.SslStream"/>
/// runs over, and what the opening's greeting reads and writes.</summary>
/// <remarks>
/// Reads wait in the socket's <c>poll</c> on the calling thread, so the read thread's blocking TLS read keeps the
/// properties of a plaintext one. While the connection opens, writes go straight to the socket (the handshake, the
/// greeting); once <see cref="CaptureRecords"/> is called, the TLS records a write produces are kept in
/// <see cref="Records"/>, and the owner of the connection's write side sends them, non-blocking or waiting, exactly as it
/// sends plaintext (<see cref="TlsFraming"/>).
/// </remarks>
internal sealed class PolledSocketStream : Stream
{
    private const int RecordsBytes = 80 * 1024;

    private readonly PolledSocket _socket;
    private int _sealingThread;

    internal PolledSocketStream(PolledSocket socket)
    {
        _socket = socket;
    }

    /// <summary>Gets the TLS records waiting to be sent, once <see cref="CaptureRecords"/> was called; null before.</summary>
    internal ArrayBufferWriter<byte>? Records { get; private set; }

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    /// <summary>The TLS connection is open: the records of later writes are kept in <see cref="Records"/> instead of being sent.</summary>
    internal void CaptureRecords() => Records = new ArrayBufferWriter<byte>(RecordsBytes);

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

    public override int Read(byte[] buffer, int offset, int count) => _socket.Receive(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer) => _socket.Receive(buffer);

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (Records is null)
        {
            // Opening (the handshake, the greeting): straight to the socket.
            while (!buffer.IsEmpty)
            {
                buffer = buffer[_socket.Send(buffer, blocking: true)..];
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
            _socket.CloseSocket();
        }

        base.Dispose(disposing);
    }
}
