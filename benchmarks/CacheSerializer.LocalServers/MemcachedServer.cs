using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using CacheSerializer.LocalServers.Internal;

namespace CacheSerializer.LocalServers;

/// <summary>A real memcached server on a free 127.0.0.1 port, started from PATH; can be killed and restarted on the same port,
/// optionally with TLS and authentication (<see cref="MemcachedServerSecurity"/>).</summary>
/// <remarks>
/// <para>This project's main type. CacheSerializer.LocalServers starts real memcached (this type) and redis-server
/// (<see cref="RedisServer"/>) processes on free 127.0.0.1 ports for the tests, the benchmarks and the load test, checks
/// that the listener on each port is the process it started, and stops them when disposed; the certificates a TLS
/// memcached needs are made by <see cref="ThrowawayCertificates"/>.</para>
/// <para>A missing binary fails with the install command; tests never skip.</para>
/// </remarks>
public sealed class MemcachedServer : IDisposable
{
    /// <summary>The command that installs memcached on Debian/Ubuntu, quoted when the binary is missing.</summary>
    public const string InstallHint = "apt-get update && apt-get install -y memcached";

    private readonly string _extraArguments;
    private readonly string? _authDirectory;
    private Process? _process;

    private MemcachedServer(int port, string extraArguments, MemcachedServerSecurity? security)
    {
        Port = port;
        Security = security;
        if (security is { Users.Count: > 0 })
        {
            _authDirectory = Path.Combine(Path.GetTempPath(), "cacheserializer-auth-" + Guid.NewGuid().ToString("N")[..12]);
            Directory.CreateDirectory(_authDirectory);
        }

        _extraArguments = extraArguments + (security?.ToArguments(_authDirectory ?? Path.GetTempPath()) ?? string.Empty);
    }

    /// <summary>Gets the TCP port the server listens on (kept across restarts).</summary>
    public int Port { get; }

    /// <summary>Gets the server as <c>127.0.0.1:port</c>, ready for <c>MemcachedClientOptions.Servers</c>.</summary>
    public string Endpoint => $"127.0.0.1:{Port}";

    /// <summary>Gets what the server requires of clients (TLS, a client certificate, users), or null for plaintext without authentication.</summary>
    public MemcachedServerSecurity? Security { get; }

    /// <summary>Gets a value indicating whether the process is running.</summary>
    public bool IsRunning => _process is { HasExited: false };

    private Process Running => _process ?? throw new InvalidOperationException($"memcached on port {Port} is not running");

    /// <summary>Starts memcached on a free loopback port and waits until it accepts connections.</summary>
    /// <param name="extraArguments">More memcached arguments, e.g. <c>-I 2m</c>.</param>
    /// <param name="security">TLS and authentication, or null for neither.</param>
    /// <returns>The running server; dispose it to stop it.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not on PATH (the message has the install command), it
    /// exited at start (its last output lines say why), or it did not accept connections within 10 s.</exception>
    public static MemcachedServer Start(string extraArguments = "", MemcachedServerSecurity? security = null) =>
        ServerProcess.StartOnFreePort(port => new MemcachedServer(port, extraArguments, security), static server => server.Restart());

    /// <summary>Returns a port nothing listens on right now.</summary>
    public static int FreePort() => LoopbackPort.Free();

    /// <summary>Finds memcached on PATH, or fails with the install command.</summary>
    /// <returns>Its path.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not on PATH.</exception>
    public static string FindBinary() =>
        ExecutableSearch.Find("memcached")
        ?? throw new ServerUnavailableException($"memcached was not found on PATH; the integration tests and the load test need a real server. Install it: {InstallHint}");

    /// <summary>Kills the server at once (no graceful shutdown), as a crash would.</summary>
    public void Kill()
    {
        if (_process is { } process)
        {
            _process = null;
            ServerProcess.Kill(process);
        }
    }

    /// <summary>Freezes the process (SIGSTOP): it keeps its connections and memory but answers nothing, as a hung or
    /// swapping server does, until <see cref="Resume"/>. Returns once every thread of it is stopped.</summary>
    /// <exception cref="InvalidOperationException">The server is not running.</exception>
    /// <exception cref="TimeoutException">Its threads did not all stop within 10 s.</exception>
    public void Pause() => ServerProcess.Pause(Running, $"memcached on port {Port}");

    /// <summary>Lets a paused process run again (SIGCONT); returns once none of its threads is stopped.</summary>
    /// <exception cref="InvalidOperationException">The server is not running.</exception>
    /// <exception cref="TimeoutException">Its threads did not all resume within 10 s.</exception>
    public void Resume() => ServerProcess.Resume(Running, $"memcached on port {Port}");

    /// <summary>Starts (again) on the same port, with empty memory, and waits until it accepts connections.</summary>
    public void Restart()
    {
        Kill();
        string user = Environment.UserName == "root" ? "-u root " : string.Empty;
        var info = new ProcessStartInfo(FindBinary(), $"{user}-l 127.0.0.1 -p {Port} -U 0 -m 64 -t 2 -c 4096 {_extraArguments}");
        _process = ServerProcess.Launch(info, "memcached", Port, AcceptsConnections, "accept connections");
    }

    /// <summary>Whether the port accepts a connection.</summary>
    private bool AcceptsConnections()
    {
        try
        {
            using var probe = new TcpClient();
            probe.Connect(IPAddress.Loopback, Port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Stops the server and deletes its auth file.</summary>
    public void Dispose()
    {
        Kill();
        if (_authDirectory is not null)
        {
            try
            {
                Directory.Delete(_authDirectory, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

}
