using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>A loopback TCP relay in front of a real memcached, standing for the network between web servers and that
/// node: <see cref="Cut"/> is a partition (every relayed connection reset, new ones refused), <see cref="Mend"/> ends it.
/// What a client sends after <see cref="Cut"/> returns never reaches memcached, unlike a frozen (SIGSTOP) memcached,
/// which runs whatever was sent to it once it resumes; and the node keeps its items, unlike a killed one.</summary>
public sealed class PartitionRelay : IDisposable
{
    private readonly int _target;
    private readonly object _gate = new();
    private readonly List<Socket> _open = [];
    private Socket? _listener;

    /// <summary>Relays a free 127.0.0.1 port to 127.0.0.1:<paramref name="targetPort"/>.</summary>
    public PartitionRelay(int targetPort)
    {
        _target = targetPort;
        Port = Listen(0);
    }

    /// <summary>Gets the relay's port (kept across a cut).</summary>
    public int Port { get; }

    /// <summary>Gets the relay as <c>127.0.0.1:port</c>, for <c>MemcachedClientOptions.Servers</c>.</summary>
    public string Endpoint => $"127.0.0.1:{Port}";

    /// <summary>Resets every relayed connection on both sides and stops listening: connects are refused until <see cref="Mend"/>.</summary>
    public void Cut()
    {
        lock (_gate)
        {
            _listener?.Dispose();
            _listener = null;
            foreach (Socket socket in _open)
            {
                Reset(socket);
            }

            _open.Clear();
        }
    }

    /// <summary>Listens again on the same port.</summary>
    public void Mend()
    {
        lock (_gate)
        {
            if (_listener is null)
            {
                Listen(Port);
            }
        }
    }

    public void Dispose() => Cut();

    private int Listen(int port)
    {
        var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, port));
        listener.Listen(64);
        _listener = listener;
        _ = AcceptAsync(listener);
        return ((IPEndPoint)listener.LocalEndPoint!).Port;
    }

    private async Task AcceptAsync(Socket listener)
    {
        while (true)
        {
            Socket client;
            try
            {
                client = await listener.AcceptAsync();
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                return; // cut
            }

            var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            client.NoDelay = true;
            lock (_gate)
            {
                if (!ReferenceEquals(_listener, listener))
                {
                    Reset(client);
                    server.Dispose();
                    return;
                }

                _open.Add(client);
                _open.Add(server);
            }

            _ = RelayAsync(client, server);
        }
    }

    private async Task RelayAsync(Socket client, Socket server)
    {
        try
        {
            await server.ConnectAsync(IPAddress.Loopback, _target);
            await Task.WhenAny(PumpAsync(client, server), PumpAsync(server, client));
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }

        lock (_gate)
        {
            _open.Remove(client);
            _open.Remove(server);
        }

        Reset(client);
        Reset(server);
    }

    private static async Task PumpAsync(Socket from, Socket to)
    {
        byte[] buffer = new byte[16 * 1024];
        try
        {
            int read;
            while ((read = await from.ReceiveAsync(buffer, SocketFlags.None)) > 0)
            {
                await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }
    }

    /// <summary>Closes with an RST (linger 0), as a partition's peer is seen to vanish, rather than a graceful FIN.</summary>
    private static void Reset(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }

        socket.Dispose();
    }
}
