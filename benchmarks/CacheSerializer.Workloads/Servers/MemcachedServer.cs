using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace CacheSerializer.Workloads.Servers;

/// <summary>A real memcached server on a free 127.0.0.1 port, started from PATH; can be killed and restarted on the same port.</summary>
/// <remarks>
/// Shared by the tests' fixtures and the load test. A missing binary fails with the install command; tests never skip.
/// </remarks>
public sealed class MemcachedServer : IDisposable
{
    /// <summary>The command that installs memcached on Debian/Ubuntu, quoted when the binary is missing.</summary>
    public const string InstallHint = "apt-get update && apt-get install -y memcached";

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(10);
    private readonly string _extraArguments;
    private Process? _process;

    private MemcachedServer(int port, string extraArguments)
    {
        Port = port;
        _extraArguments = extraArguments;
    }

    /// <summary>Gets the TCP port the server listens on (kept across restarts).</summary>
    public int Port { get; }

    /// <summary>Gets the server as <c>127.0.0.1:port</c>, ready for <c>MemcachedClientOptions.Servers</c>.</summary>
    public string Endpoint => $"127.0.0.1:{Port}";

    /// <summary>Gets a value indicating whether the process is running.</summary>
    public bool IsRunning => _process is { HasExited: false };

    /// <summary>Starts memcached on a free loopback port and waits until it accepts connections.</summary>
    /// <param name="extraArguments">More memcached arguments, e.g. <c>-I 2m</c>.</param>
    public static MemcachedServer Start(string extraArguments = "")
    {
        var server = new MemcachedServer(FreePort(), extraArguments);
        server.Restart();
        return server;
    }

    /// <summary>Returns a port nothing listens on right now.</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    /// <summary>Finds memcached on PATH, or fails with the install command.</summary>
    public static string FindBinary()
    {
        foreach (string dir in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(dir, "memcached");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new InvalidOperationException($"memcached was not found on PATH; the integration tests and the load test need a real server. Install it: {InstallHint}");
    }

    /// <summary>Kills the server at once (no graceful shutdown), as a crash would.</summary>
    public void Kill()
    {
        if (_process is { } process)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
            }

            process.WaitForExit(5000);
            process.Dispose();
            _process = null;
        }
    }

    /// <summary>Freezes the process (SIGSTOP): it keeps its connections and memory but answers nothing, as a hung or
    /// swapping server does, until <see cref="Resume"/>.</summary>
    public void Pause() => Signal("STOP");

    /// <summary>Lets a paused process run again (SIGCONT).</summary>
    public void Resume() => Signal("CONT");

    /// <summary>Starts (again) on the same port, with empty memory, and waits until it accepts connections.</summary>
    public void Restart()
    {
        Kill();
        string user = Environment.UserName == "root" ? "-u root " : string.Empty;
        var info = new ProcessStartInfo(FindBinary(), $"{user}-l 127.0.0.1 -p {Port} -U 0 -m 64 -t 2 -c 4096 {_extraArguments}")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        _process = Process.Start(info) ?? throw new InvalidOperationException("memcached did not start");
        _process.OutputDataReceived += static (_, _) => { };
        _process.ErrorDataReceived += static (_, _) => { };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();

        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < StartTimeout)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"memcached exited at start with code {_process.ExitCode} (port {Port} taken?)");
            }

            try
            {
                using var probe = new TcpClient();
                probe.Connect(IPAddress.Loopback, Port);
                return;
            }
            catch (SocketException)
            {
                Thread.Sleep(20);
            }
        }

        throw new TimeoutException($"memcached did not accept connections on port {Port} within {StartTimeout.TotalSeconds} s");
    }

    /// <summary>Stops the server.</summary>
    public void Dispose() => Kill();

    private void Signal(string signal)
    {
        Process process = _process ?? throw new InvalidOperationException($"memcached on port {Port} is not running");
        using Process kill = Process.Start(new ProcessStartInfo("kill", $"-{signal} {process.Id}") { UseShellExecute = false })
            ?? throw new InvalidOperationException("kill did not start");
        kill.WaitForExit();
        if (kill.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -{signal} {process.Id} exited with {kill.ExitCode}");
        }
    }
}
