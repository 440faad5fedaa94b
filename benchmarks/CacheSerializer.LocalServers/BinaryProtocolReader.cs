using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Text;

namespace CacheSerializer.LocalServers;

/// <summary>
/// What an EnyimMemcachedCore application reads from a memcached server: the binary protocol's get (opcode 0x00), the
/// only read its MemcachedClient sends (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/Memcached/Protocol/Binary/GetOperation.cs: a status 0 reply is a hit, whatever the item, with the
/// client flags of its extras cut to 16 bits). Unlike a meta get, it sees no win or stale flag: a get-or-create
/// placeholder is an empty hit and an item marked stale a fresh one. For tests and the load test's old web servers.
/// </summary>
/// <remarks>One request per connection at a time; concurrent callers take idle connections from a bag, or open one.</remarks>
public sealed class BinaryProtocolReader : IAsyncDisposable
{
    private const int HeaderLength = 24;
    private readonly string _host;
    private readonly int _port;
    private readonly ConcurrentBag<Socket> _idle = [];
    private bool _disposed;

    /// <summary>Creates a reader of one server.</summary>
    /// <param name="endpoint">The server, as host:port.</param>
    public BinaryProtocolReader(string endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        int colon = endpoint.LastIndexOf(':');
        _host = endpoint[..colon];
        _port = int.Parse(endpoint[(colon + 1)..], System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>Gets a key as EnyimMemcachedCore's binary get does.</summary>
    /// <param name="key">The key, stored as its UTF-8 bytes (EnyimMemcachedCore's default key transformer).</param>
    /// <param name="cancellationToken">Cancels the read (the connection is then closed).</param>
    /// <returns>Whether the server answered with an item (status 0), its flags as EnyimMemcachedCore keeps them, and its bytes.</returns>
    /// <exception cref="IOException">The server closed the connection or answered something that is no get reply.</exception>
    public async Task<(bool Found, ushort Flags, byte[] Data)> GetAsync(string key, CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        byte[] keyBytes = Encoding.UTF8.GetBytes(key);
        byte[] request = new byte[HeaderLength + keyBytes.Length];
        request[0] = 0x80; // request magic
        request[1] = 0x00; // get
        BinaryPrimitives.WriteUInt16BigEndian(request.AsSpan(2), (ushort)keyBytes.Length);
        BinaryPrimitives.WriteUInt32BigEndian(request.AsSpan(8), (uint)keyBytes.Length);
        keyBytes.CopyTo(request, HeaderLength);

        Socket socket = _idle.TryTake(out Socket? idle) ? idle : await ConnectAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            await socket.SendAsync(request, SocketFlags.None, cancellationToken).ConfigureAwait(false);
            byte[] header = new byte[HeaderLength];
            await ReceiveExactlyAsync(socket, header, cancellationToken).ConfigureAwait(false);
            if (header[0] != 0x81 || header[1] != 0x00)
            {
                throw new IOException($"Not a binary get reply: magic 0x{header[0]:X2}, opcode 0x{header[1]:X2}.");
            }

            ushort status = BinaryPrimitives.ReadUInt16BigEndian(header.AsSpan(6));
            int extras = header[4];
            int keyLength = BinaryPrimitives.ReadUInt16BigEndian(header.AsSpan(2));
            byte[] body = new byte[BinaryPrimitives.ReadUInt32BigEndian(header.AsSpan(8))];
            await ReceiveExactlyAsync(socket, body, cancellationToken).ConfigureAwait(false);
            _idle.Add(socket);
            if (status != 0)
            {
                return (false, 0, []);
            }

            ushort flags = (ushort)BinaryPrimitives.ReadUInt32BigEndian(body);
            return (true, flags, body[(extras + keyLength)..]);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Closes the connections.</summary>
    /// <returns>A completed task.</returns>
    public ValueTask DisposeAsync()
    {
        _disposed = true;
        while (_idle.TryTake(out Socket? socket))
        {
            socket.Dispose();
        }

        return ValueTask.CompletedTask;
    }

    private static async Task ReceiveExactlyAsync(Socket socket, Memory<byte> buffer, CancellationToken cancellationToken)
    {
        while (buffer.Length > 0)
        {
            int read = await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                throw new IOException("The server closed the connection.");
            }

            buffer = buffer[read..];
        }
    }

    private async Task<Socket> ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(_host, _port, cancellationToken).ConfigureAwait(false);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
