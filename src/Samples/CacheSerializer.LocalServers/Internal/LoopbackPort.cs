using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.LocalServers.Internal;

/// <summary>The loopback port a server is started on: one free when chosen, and a check that the listener found on it
/// is the started process rather than another that took the port between the choice and the bind.</summary>
internal static class LoopbackPort
{
    /// <summary>Returns a port nothing listens on right now (the kernel's choice for port 0).</summary>
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
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
