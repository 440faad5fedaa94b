using System.Collections.Concurrent;
using System.Diagnostics;

namespace CacheSerializer.LocalServers.Internal;

/// <summary>The life of a server process, the same for <see cref="MemcachedServer"/> and <see cref="RedisServer"/>: a
/// free port (another one when something took it first), a launch that waits until the server is ready or reports why
/// it exited, and a kill.</summary>
internal static class ServerProcess
{
    private const int StartAttempts = 5;

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Creates a server on a free loopback port and launches it; when another process (a test run beside this
    /// one) took the port before the server bound it, tries another port, up to 5 in all.</summary>
    internal static T StartOnFreePort<T>(Func<int, T> create, Action<T> launch)
        where T : IDisposable
    {
        for (int attempt = 1; ; attempt++)
        {
            T server = create(LoopbackPort.Free());
            try
            {
                launch(server);
                return server;
            }
            catch (PortTakenException) when (attempt < StartAttempts)
            {
                server.Dispose();
            }
            catch
            {
                server.Dispose();
                throw;
            }
        }
    }

    /// <summary>Starts <paramref name="info"/> and waits until <paramref name="ready"/> holds for it and the listener on
    /// <paramref name="port"/> is this process (not another that took the port meanwhile).</summary>
    /// <param name="info">The command; its output and error streams are redirected here.</param>
    /// <param name="name">The server's name in messages.</param>
    /// <param name="port">The loopback port it was told to listen on.</param>
    /// <param name="ready">Whether the server answers on the port (a connection accepted, a PING answered).</param>
    /// <param name="readiness">What <paramref name="ready"/> waits for, in the timeout's message.</param>
    /// <returns>The running process.</returns>
    /// <exception cref="PortTakenException">It exited at start because the port was taken.</exception>
    /// <exception cref="ServerUnavailableException">It did not start, exited at start for another reason (its last
    /// output lines say why: a bad certificate, an unreadable auth file, a bad argument), or was not ready within 10 s
    /// (it is killed).</exception>
    internal static Process Launch(ProcessStartInfo info, string name, int port, Func<bool> ready, string readiness)
    {
        info.UseShellExecute = false;
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        Process process = Process.Start(info) ?? throw new ServerUnavailableException($"{name} did not start");
        var output = new ConcurrentQueue<string>();
        DataReceivedEventHandler keep = (_, e) =>
        {
            if (e.Data is { Length: > 0 } line && output.Count < 40)
            {
                output.Enqueue(line);
            }
        };
        process.OutputDataReceived += keep;
        process.ErrorDataReceived += keep;
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < StartTimeout)
        {
            if (process.HasExited)
            {
                process.WaitForExit(); // drains the output
                string message = $"{name} exited at start with code {process.ExitCode} (port {port} taken?): {string.Join(" / ", output.TakeLast(5))}";
                bool taken = output.Any(static line => line.Contains("Address already in use", StringComparison.Ordinal));
                process.Dispose();
                throw taken ? new PortTakenException(message) : new ServerUnavailableException(message);
            }

            // Ready from a listener that is not this process (the port taken meanwhile) does not count: this one is about
            // to exit with "Address already in use", and the branch above reports it.
            if (ready() && LoopbackPort.IsListenedBy(port, process))
            {
                return process;
            }

            Thread.Sleep(20);
        }

        Kill(process);
        throw new ServerUnavailableException($"{name} did not {readiness} on port {port} within {StartTimeout.TotalSeconds} s");
    }

    /// <summary>Kills the process at once (SIGKILL, as a crash would) and waits for it to exit.</summary>
    internal static void Kill(Process process)
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
    }
}
