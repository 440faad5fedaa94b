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
    private static readonly TimeSpan SignalTimeout = TimeSpan.FromSeconds(10);

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

    /// <summary>Freezes the process (SIGSTOP) and returns once every thread of it is stopped.</summary>
    /// <remarks>
    /// <c>kill -STOP</c> returns before the process is stopped: Linux wakes one thread, which stops the others when it
    /// next runs, so on a busy machine a worker thread can still read and answer a request sent right after (seen with
    /// memcached 1.6.18: after 8 of 300 <c>kill -STOP</c>s, threads were still running or sleeping). Waiting until
    /// /proc shows every thread stopped (state T) makes the freeze certain before the caller sends anything.
    /// </remarks>
    /// <param name="process">The server's process.</param>
    /// <param name="name">The server in messages ("memcached on port 1234").</param>
    internal static void Pause(Process process, string name)
    {
        Signal(process, "STOP");
        WaitForThreads(process, stopped: true, "SIGSTOP", name);
    }

    /// <summary>Lets a paused process run again (SIGCONT); returns once none of its threads is stopped.</summary>
    /// <param name="process">The server's process.</param>
    /// <param name="name">The server in messages.</param>
    internal static void Resume(Process process, string name)
    {
        Signal(process, "CONT");
        WaitForThreads(process, stopped: false, "SIGCONT", name);
    }

    /// <summary>Waits until every thread of the process is stopped (or none is), as /proc reports it (Linux; elsewhere it
    /// returns at once).</summary>
    private static void WaitForThreads(Process process, bool stopped, string signal, string name)
    {
        string tasks = $"/proc/{process.Id}/task";
        if (!Directory.Exists("/proc/self/task"))
        {
            return;
        }

        var clock = Stopwatch.StartNew();
        while (true)
        {
            char[] states = Directory.GetDirectories(tasks).Select(ThreadState).Where(state => state != '\0').ToArray();
            if (states.Length > 0 && states.All(state => (state == 'T') == stopped))
            {
                return;
            }

            if (clock.Elapsed > SignalTimeout)
            {
                throw new TimeoutException($"{name} did not {(stopped ? "stop" : "resume")} within {SignalTimeout.TotalSeconds} s of {signal}: its threads are in states {new string(states)}");
            }

            Thread.Sleep(1);
        }
    }

    /// <summary>A thread's state letter from /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat (the field after the parenthesised
    /// name, which may itself contain spaces), or '\0' when the thread has ended meanwhile.</summary>
    private static char ThreadState(string taskDirectory)
    {
        string stat;
        try
        {
            stat = File.ReadAllText(Path.Combine(taskDirectory, "stat"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return '\0';
        }

        int end = stat.LastIndexOf(')');
        return end >= 0 && end + 2 < stat.Length ? stat[end + 2] : '\0';
    }

    private static void Signal(Process process, string signal)
    {
        using Process kill = Process.Start(new ProcessStartInfo("kill", $"-{signal} {process.Id}") { UseShellExecute = false })
            ?? throw new InvalidOperationException("kill did not start");
        kill.WaitForExit();
        if (kill.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -{signal} {process.Id} exited with {kill.ExitCode}");
        }
    }
}
