using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using CacheSerializer.LocalServers.Internal;

namespace CacheSerializer.LocalServers;

/// <summary>A real redis-server on a free 127.0.0.1 port, started from PATH without persistence, for the client
/// benchmark's StackExchange.Redis contender; stopped (killed) on dispose.</summary>
/// <remarks>
/// The same design as <see cref="MemcachedServer"/>: a port free when chosen, another one when something else took it
/// before the server bound it (the listener found on the port must be this process's), and a missing binary fails with
/// the install command. It never uses the service Debian's package may run on 6379. Ready means it answered
/// <c>PING</c>, not only that its port accepts connections.
/// </remarks>
public sealed class RedisServer : IDisposable
{
    /// <summary>The command that installs redis-server on Debian/Ubuntu, quoted when the binary is missing.</summary>
    public const string InstallHint = "apt-get update && apt-get install -y redis-server";

    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(1);
    private readonly string[] _extraArguments;
    private Process? _process;

    private RedisServer(int port, string[] extraArguments)
    {
        Port = port;
        _extraArguments = extraArguments;
    }

    /// <summary>Gets the TCP port the server listens on.</summary>
    public int Port { get; }

    /// <summary>Gets the server as <c>127.0.0.1:port</c>, as StackExchange.Redis's configuration string takes it.</summary>
    public string Endpoint => $"127.0.0.1:{Port}";

    /// <summary>Gets a value indicating whether the process is running.</summary>
    public bool IsRunning => _process is { HasExited: false };

    /// <summary>Gets the id of the redis-server process, e.g. to read its CPU time from /proc/&lt;pid&gt;/stat.</summary>
    /// <exception cref="InvalidOperationException">The server has been disposed.</exception>
    public int ProcessId => Running.Id;

    /// <summary>Gets the CPU time (user and system) the redis-server process has used since it started, read afresh.</summary>
    /// <exception cref="InvalidOperationException">The server has been disposed.</exception>
    public TimeSpan TotalProcessorTime
    {
        get
        {
            Process process = Running;
            process.Refresh();
            return process.TotalProcessorTime;
        }
    }

    private Process Running => _process ?? throw new InvalidOperationException($"redis-server on port {Port} is not running");

    /// <summary>Starts redis-server on a free loopback port and waits until it answers <c>PING</c>.</summary>
    /// <param name="extraArguments">More redis-server arguments, one per item, e.g. <c>"--maxmemory", "512mb"</c>.</param>
    /// <returns>The running server; dispose it to stop it.</returns>
    /// <exception cref="ServerUnavailableException">redis-server is not on PATH (the message has the install command), it
    /// exited at start, or it did not answer <c>PING</c> within 10 s.</exception>
    public static RedisServer Start(params string[] extraArguments) =>
        ServerProcess.StartOnFreePort(port => new RedisServer(port, extraArguments), static server => server.Launch());

    /// <summary>Freezes the process (SIGSTOP): it keeps its connections and memory but answers nothing, as a hung
    /// server does, until <see cref="Resume"/>. Returns once every thread of it is stopped.</summary>
    /// <exception cref="InvalidOperationException">The server has been disposed.</exception>
    /// <exception cref="TimeoutException">Its threads did not all stop within 10 s.</exception>
    public void Pause() => ServerProcess.Pause(Running, $"redis-server on port {Port}");

    /// <summary>Lets a paused process run again (SIGCONT); returns once none of its threads is stopped.</summary>
    /// <exception cref="InvalidOperationException">The server has been disposed.</exception>
    /// <exception cref="TimeoutException">Its threads did not all resume within 10 s.</exception>
    public void Resume() => ServerProcess.Resume(Running, $"redis-server on port {Port}");

    /// <summary>Finds redis-server on PATH, or fails with the install command.</summary>
    /// <exception cref="ServerUnavailableException">redis-server is not on PATH.</exception>
    public static string FindBinary() => FindBinary(path: null);

    /// <summary>Kills the server at once (SIGKILL, no graceful shutdown), as a crash would; <see cref="Restart"/> starts it
    /// again on its port.</summary>
    public void Kill()
    {
        if (_process is { } process)
        {
            _process = null;
            ServerProcess.Kill(process);
        }
    }

    /// <summary>Starts (again) on the same port and with the same arguments, empty (it saves nothing), and waits until it
    /// answers <c>PING</c>; a replica (<c>--replicaof</c>) then syncs from its primary again.</summary>
    /// <exception cref="ServerUnavailableException">It exited at start, or did not answer <c>PING</c> within 10 s.</exception>
    public void Restart()
    {
        Kill();
        Launch();
    }

    /// <summary>Stops the server at once (SIGKILL: it keeps nothing to save).</summary>
    public void Dispose() => Kill();

    /// <summary>Finds redis-server in the directories of <paramref name="path"/> (PATH's syntax; the process's PATH when null).</summary>
    internal static string FindBinary(string? path) =>
        ExecutableSearch.Find("redis-server", path)
        ?? throw new ServerUnavailableException($"redis-server was not found on PATH; the client benchmark's StackExchange.Redis contender and its tests need a real server. Install it: {InstallHint}");

    private void Launch()
    {
        var info = new ProcessStartInfo(FindBinary());
        // A cache, not a store: no RDB snapshots (--save "") and no append-only file, so nothing is written to disk and
        // a kill loses nothing that matters. Bound to loopback only, where protected mode (on by default) lets every
        // local client in without a password, so it is left on. --dir keeps any file redis might still write out of
        // the caller's working directory.
        string[] arguments = ["--port", Port.ToString(CultureInfo.InvariantCulture), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", Path.GetTempPath()];
        foreach (string argument in arguments.Concat(_extraArguments))
        {
            info.ArgumentList.Add(argument);
        }

        // Ready means it answered PING, not only that its port accepts connections.
        _process = ServerProcess.Launch(info, "redis-server", Port, AnswersPing, "answer PING");
    }

    /// <summary>Whether the port answers an inline <c>PING</c> with <c>+PONG</c>.</summary>
    private bool AnswersPing()
    {
        try
        {
            using var probe = new TcpClient { ReceiveTimeout = (int)PingTimeout.TotalMilliseconds, SendTimeout = (int)PingTimeout.TotalMilliseconds };
            probe.Connect(IPAddress.Loopback, Port);
            NetworkStream stream = probe.GetStream();
            stream.Write("PING\r\n"u8);
            byte[] reply = new byte[7];
            int read = 0;
            while (read < reply.Length)
            {
                int n = stream.Read(reply, read, reply.Length - read);
                if (n == 0)
                {
                    return false;
                }

                read += n;
            }

            return Encoding.ASCII.GetString(reply) == "+PONG\r\n";
        }
        catch (Exception ex) when (ex is SocketException or IOException)
        {
            return false;
        }
    }
}
