using System.Buffers;
using System.Net.Security;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>A TLS connection's framing: the write side's batches are encrypted into records that end where requests end,
/// and the read thread reads decrypted bytes, both through one <see cref="SslStream"/> over the connection's
/// <see cref="PolledSocketStream"/>.</summary>
/// <remarks>
/// Everything else is shared with plaintext: requests are batched into the same buffer, which the owner of the write side
/// encrypts (<see cref="Seal"/>) into records (<see cref="Records"/>) it then sends with the same non-blocking or waiting
/// send; the read thread reads through the <see cref="SslStream"/>, whose blocking read waits in the socket's <c>poll</c>
/// on the same thread.
/// </remarks>
internal sealed class TlsFraming
{
    /// <summary>The most bytes of whole requests encrypted into one record (a larger request goes alone): under
    /// memcached's 16 KB read buffer and TLS's 16 KB record, with room to spare (see <see cref="WriteRecords"/>).</summary>
    private const int RecordBytes = 15 * 1024;

    private readonly SslStream _ssl;
    private readonly PolledSocketStream _transport;
    private readonly List<int> _requestEnds = [];

    // Keeps the read thread's disposal of the session (when it ends) from racing an encryption by the write side's owner.
    private readonly Lock _gate = new();
    private bool _disposed;

    /// <param name="ssl">The authenticated session.</param>
    /// <param name="transport">The stream under it, which from now on keeps the records of each write.</param>
    internal TlsFraming(SslStream ssl, PolledSocketStream transport)
    {
        _ssl = ssl;
        _transport = transport;
        transport.CaptureRecords();
    }

    /// <summary>Gets the records of the last sealed batch, which the write side sends.</summary>
    internal ArrayBufferWriter<byte> Records => _transport.Records!;

    /// <summary>Reads decrypted bytes, waiting in <c>poll</c> when none have arrived; 0 when the session ended.</summary>
    internal int Read(Span<byte> into) => _ssl.Read(into);

    /// <summary>Owner of the write side: a request ends at <paramref name="end"/> bytes into the batch being built.</summary>
    internal void RequestEnded(int end) => _requestEnds.Add(end);

    /// <summary>Owner of the write side: encrypts the batch into <see cref="Records"/>.</summary>
    /// <exception cref="ObjectDisposedException">The connection broke and the read thread freed the session.</exception>
    internal void Seal(ArrayBufferWriter<byte> batch)
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _transport.Seal(static state => state.Framing.WriteRecords(state.Batch.WrittenSpan), (Framing: this, Batch: batch));
        }

        _requestEnds.Clear();
    }

    /// <summary>The write side sent <see cref="Records"/>.</summary>
    internal void RecordsSent() => _transport.RecordsSent();

    /// <summary>The read thread, once it ends (the connection is broken): frees the session, never while the write side's
    /// owner is encrypting with it.</summary>
    internal void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            _ssl.Dispose();
        }
    }

    /// <summary>Encrypts the batch so that each TLS record ends where a request ends and holds at most
    /// <see cref="RecordBytes"/> (a larger request alone, split by <see cref="SslStream"/> from its start).</summary>
    /// <remarks>
    /// memcached before 1.6.39 (commit 96e05b75, "tls: fix potential hang when pipelining sets") never checks
    /// <c>SSL_pending</c>: when it reads less than a whole record (its 16 KB read buffer is partly full, or it reads just
    /// the rest of a value and the record goes on with the next requests), OpenSSL keeps the rest decrypted, the socket is
    /// empty, and memcached sleeps until more bytes arrive, so pipelined requests hang until the operation timeout (seen
    /// with 500 concurrent sets on memcached 1.6.18, Debian's). Records of whole requests, each at most what its read
    /// buffer holds once the previous record's requests are done, are always read whole.
    /// </remarks>
    private void WriteRecords(ReadOnlySpan<byte> batch)
    {
        int start = 0;
        int end = 0;
        foreach (int requestEnd in _requestEnds)
        {
            if (requestEnd - start > RecordBytes && end > start)
            {
                _ssl.Write(batch[start..end]);
                start = end;
            }

            end = requestEnd;
        }

        if (end > start)
        {
            _ssl.Write(batch[start..end]);
        }
    }
}
