using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.LocalServers.Internal;

/// <summary>The loopback port a server is started on: one free when chosen, and a check that the listener found on it
/// is the started process rather than another that took the port between the choice and the bind.</summary>
internal static class LoopbackPort
{
    /// <summary>The lowest port chosen: above the well-known and most registered services' ports.</summary>
    private const int Lowest = 10_000;

    /// <summary>Returns a port nothing listens on right now, below the kernel's ephemeral range where there is room.</summary>
    /// <remarks>
    /// Not the kernel's choice for port 0: that is an ephemeral port, which the kernel also hands to outgoing
    /// connections. A server killed and restarted on its port (a fault test) could then find it taken by a connection
    /// some other test opened meanwhile. Ports below the ephemeral range are only ever taken by an explicit bind.
    /// </remarks>
    public static int Free()
    {
        int below = EphemeralRangeStart();
        if (below - Lowest >= 1_000)
        {
            for (int attempt = 0; attempt < 100; attempt++)
            {
                int port = Random.Shared.Next(Lowest, below);
                if (TryListen(port))
                {
                    return port;
                }
            }
        }

        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int chosen = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return chosen;
    }

    /// <summary>The first port of the kernel's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range; 0 where
    /// it cannot be read, which makes <see cref="Free"/> take the kernel's choice).</summary>
    private static int EphemeralRangeStart()
    {
        try
        {
            string range = File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range");
            string first = range.Split((char[])['\t', ' ', '\n'], StringSplitOptions.RemoveEmptyEntries)[0];
            return int.Parse(first, System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return 0;
        }
    }

    private static bool TryListen(int port)
    {
        try
        {
            using var listener = new TcpListener(IPAddress.Loopback, port);
            listener.Start();
            listener.Stop();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Whether <paramref name="process"/> holds the socket listening on 127.0.0.1:<paramref name="port"/>, not
    /// some other process that took the port (Linux: the LISTEN entry of /proc/net/tcp and a descriptor of the process
    /// naming its inode; elsewhere, true).</summary>
    public static bool IsListenedBy(int port, Process process)
    {
        if (!File.Exists("/proc/net/tcp"))
        {
            return true;
        }

        string local = $"0100007F:{port:X4}";
        string? inode = File.ReadLines("/proc/net/tcp").Skip(1)
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(fields => fields.Length > 9 && fields[1] == local && fields[3] == "0A") // 0A: TCP_LISTEN
            .Select(fields => fields[9])
            .FirstOrDefault();
        if (inode is null)
        {
            return false;
        }

        string socket = $"socket:[{inode}]";
        foreach (string descriptor in Directory.EnumerateFiles($"/proc/{process.Id}/fd"))
        {
            try
            {
                if (new FileInfo(descriptor).LinkTarget == socket)
                {
                    return true;
                }
            }
            catch (IOException)
            {
            }
        }

        return false;
    }
}
