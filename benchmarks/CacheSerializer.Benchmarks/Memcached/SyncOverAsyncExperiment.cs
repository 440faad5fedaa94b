using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using StackExchange.Redis;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>
/// Console mode <c>sync-over-async</c>: what an EnyimMemcachedCore application's synchronous calls cost, first if they
/// block on this client's tasks (<c>GetAsync(key).GetAwaiter().GetResult()</c>), then through the compatibility
/// client's synchronous methods, which need no pool thread, each against the same calls awaited, with
/// StackExchange.Redis's synchronous calls on redis-server beside them; the measurement behind
/// docs/migrating-from-enyim.md, "Synchronous calls".
/// </summary>
/// <remarks>
/// Usage: <c>dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- sync-over-async [seconds] [callers]</c>.
/// One local memcached (and redis-server, when installed), 1,000 keys of 100 bytes, <c>callers</c> loops (64 by
/// default, an ASP.NET server's worth of concurrent requests), each mode in a process of its own so that threads one
/// mode makes the pool add do not help the next. The pool starts at its default minimum (one thread per core), so
/// callers that block pool threads starve it. The first modes only read (the core client's <c>GetAsync</c>):
/// awaited; blocking on threads of their own; blocking on the pool, each caller a loop that holds its pool thread
/// throughout; blocking per request, each caller a chain of pool work items of one call each (a synchronous
/// controller's requests, as a web server queues them). The others call 9
/// reads to 1 write: the compatibility client's <c>GetAsync&lt;T&gt;</c>/<c>SetAsync</c> awaited and its <c>Get&lt;T&gt;</c>/<c>Set</c>
/// on threads of their own, on pool threads and per request, and StackExchange.Redis's
/// <c>StringGetAsync</c>/<c>StringSetAsync</c> awaited and <c>StringGet</c>/<c>StringSet</c> on threads of their own, on
/// pool threads and per request.
/// </remarks>
internal static class SyncOverAsyncExperiment
{
    /// <summary>The modes, in the order a run prints them.</summary>
    internal static readonly string[] Modes =
    [
        "awaited", "blocking-own-threads", "blocking-on-pool", "blocking-per-request",
        "enyim-awaited", "enyim-sync-own-threads", "enyim-sync-on-pool", "enyim-sync-per-request",
        "redis-awaited", "redis-sync-own-threads", "redis-sync-on-pool", "redis-sync-per-request",
        "raw-socket-own-threads",
    ];

    private const int KeyCount = 1000;

    internal static bool TryRun(string[] args)
    {
        if (args.Length == 0 || args[0] != "sync-over-async")
        {
            return false;
        }

        if (args.Length > 1 && args[1] == "--mode")
        {
            // One mode, in this (child) process: --mode <name> <endpoint> <seconds> <callers>.
            Console.WriteLine(RunModeAsync(args[2], args[3], int.Parse(args[4], CultureInfo.InvariantCulture), int.Parse(args[5], CultureInfo.InvariantCulture)).GetAwaiter().GetResult());
            return true;
        }

        int seconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 10;
        int callers = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 64;
        using var server = MemcachedServer.Start("-m 64");
        RedisServer? redis = StartRedis();
        try
        {
            Console.WriteLine($"# {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, .NET {Environment.Version}; memcached at {server.Endpoint}; " +
                $"{(redis is null ? "no redis-server" : $"redis-server at {redis.Endpoint}, StackExchange.Redis {StackExchangeRedisContender.ClientVersion}")}; {callers} callers, {seconds} s per mode, each mode in a fresh process");
            Console.WriteLine();
            Console.WriteLine("| Mode | calls | calls/s | failed calls | p50 ms | p99 ms | max ms | first 1,000 calls, ms | pool threads at end | CPU µs per call | context switches per call | bytes allocated per call |");
            Console.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            foreach (string mode in Modes)
            {
                if (IsRedis(mode) && redis is null)
                {
                    continue;
                }

                Console.WriteLine(RunChild(mode, IsRedis(mode) ? redis!.Endpoint : server.Endpoint, seconds, callers));
            }
        }
        finally
        {
            redis?.Dispose();
        }

        return true;
    }

    /// <summary>Runs one mode in this process and returns its table row.</summary>
    internal static async Task<string> RunModeAsync(string mode, string endpoint, int seconds, int callers)
    {
        byte[] value = new byte[100];
        (Func<Random, Task> awaited, Action<Random> blocking, IAsyncDisposable client) = await ConnectAsync(mode, endpoint, value);
        await using (client)
        {
            var latencies = new List<double>[callers];
            long finished = 0;
            long errors = 0;
            long firstThousandTicks = 0;
            (TimeSpan cpuBefore, long switchesBefore) = ProcessCost();
            long allocatedBefore = GC.GetTotalAllocatedBytes();
            var clock = Stopwatch.StartNew();
            long end = Stopwatch.GetTimestamp() + (seconds * Stopwatch.Frequency);

            void Record(int caller, long began)
            {
                long now = Stopwatch.GetTimestamp();
                latencies[caller].Add((now - began) * 1000.0 / Stopwatch.Frequency);
                if (Interlocked.Increment(ref finished) == 1000)
                {
                    firstThousandTicks = clock.ElapsedTicks;
                }
            }

            // A call that fails (a timeout) is counted, not timed: the row says how many failed.
            void Call(Action call, int caller, long began)
            {
                try
                {
                    call();
                    Record(caller, began);
                }
                catch (Exception ex) when (ex is RedisException or MemcachedException or TimeoutException)
                {
                    Interlocked.Increment(ref errors);
                }
            }

            void Blocking(int caller)
            {
                var random = new Random(caller);
                latencies[caller] = [];
                while (Stopwatch.GetTimestamp() < end)
                {
                    long began = Stopwatch.GetTimestamp();
                    Call(() => blocking(random), caller, began);
                }
            }

            async Task Awaited(int caller)
            {
                var random = new Random(caller);
                latencies[caller] = [];
                while (Stopwatch.GetTimestamp() < end)
                {
                    long began = Stopwatch.GetTimestamp();
                    try
                    {
                        await awaited(random).ConfigureAwait(false);
                        Record(caller, began);
                    }
                    catch (Exception ex) when (ex is RedisException or MemcachedException or TimeoutException)
                    {
                        Interlocked.Increment(ref errors);
                    }
                }
            }

            // A web server's shape: each caller is a chain of requests, each request a pool work item that makes one
            // synchronous call and ends, queueing the caller's next request (as Kestrel queues each request).
            Task PerRequest(int caller)
            {
                var random = new Random(caller);
                var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                latencies[caller] = [];
                void Request()
                {
                    if (Stopwatch.GetTimestamp() >= end)
                    {
                        done.SetResult();
                        return;
                    }

                    long began = Stopwatch.GetTimestamp();
                    Call(() => blocking(random), caller, began);
                    ThreadPool.UnsafeQueueUserWorkItem(static request => request(), Request, preferLocal: false);
                }

                ThreadPool.UnsafeQueueUserWorkItem(static request => request(), Request, preferLocal: false);
                return done.Task;
            }

            if (mode.EndsWith("awaited", StringComparison.Ordinal))
            {
                await Task.WhenAll(Enumerable.Range(0, callers).Select(c => Task.Run(() => Awaited(c))));
            }
            else if (mode.EndsWith("per-request", StringComparison.Ordinal))
            {
                await Task.WhenAll(Enumerable.Range(0, callers).Select(PerRequest));
            }
            else if (mode.EndsWith("own-threads", StringComparison.Ordinal))
            {
                Thread[] threads = [.. Enumerable.Range(0, callers).Select(c => new Thread(() => Blocking(c)) { IsBackground = true })];
                Array.ForEach(threads, t => t.Start());
                Array.ForEach(threads, t => t.Join());
            }
            else
            {
                await Task.WhenAll(Enumerable.Range(0, callers).Select(c => Task.Run(() => Blocking(c))));
            }

            double elapsed = clock.Elapsed.TotalSeconds;
            (TimeSpan cpuAfter, long switchesAfter) = ProcessCost();
            long allocatedAfter = GC.GetTotalAllocatedBytes();
            double[] all = [.. latencies.SelectMany(l => l).Order()];
            double Percentile(double p) => all.Length == 0 ? double.NaN : all[Math.Min(all.Length - 1, (int)(p * all.Length))];
            string calls = mode.StartsWith("enyim", StringComparison.Ordinal) || IsRedis(mode) ? "9 gets : 1 set" : "gets";
            return string.Create(
                CultureInfo.InvariantCulture,
                $"| {mode} | {calls} | {all.Length / elapsed:N0} | {errors} | {Percentile(0.5):F2} | {Percentile(0.99):F2} | {(all.Length == 0 ? double.NaN : all[^1]):F0} | {(firstThousandTicks == 0 ? "not reached" : (firstThousandTicks * 1000.0 / Stopwatch.Frequency).ToString("F0", CultureInfo.InvariantCulture))} | {ThreadPool.ThreadCount} | {PerCall((cpuAfter - cpuBefore).TotalMicroseconds, all.Length):F1} | {PerCall(switchesAfter - switchesBefore, all.Length):F2} | {PerCall(allocatedAfter - allocatedBefore, all.Length):F0} |");
        }
    }

    private static double PerCall(double total, int calls) => calls == 0 ? double.NaN : total / calls;

    /// <summary>The process's CPU time and context switches so far, its ended threads' included (<c>getrusage</c> on
    /// Linux; elsewhere the CPU time and -1): what a call costs beside what it waits.</summary>
    private static (TimeSpan Cpu, long ContextSwitches) ProcessCost()
    {
        if (!OperatingSystem.IsLinux() || getrusage(0 /* RUSAGE_SELF */, out ResourceUsage usage) != 0)
        {
            return (Process.GetCurrentProcess().TotalProcessorTime, -1);
        }

        long cpuMicroseconds = ((usage.UserSeconds + usage.SystemSeconds) * 1_000_000) + usage.UserMicroseconds + usage.SystemMicroseconds;
        return (TimeSpan.FromMicroseconds(cpuMicroseconds), usage.VoluntarySwitches + usage.InvoluntarySwitches);
    }

    [DllImport("libc", SetLastError = false)]
#pragma warning disable SYSLIB1054 // LibraryImport would need unsafe code in this project for one call
    private static extern int getrusage(int who, out ResourceUsage usage);
#pragma warning restore SYSLIB1054

    /// <summary>Linux's <c>struct rusage</c> (64-bit): two <c>timeval</c>s, then fourteen <c>long</c>s.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct ResourceUsage
    {
        public long UserSeconds;
        public long UserMicroseconds;
        public long SystemSeconds;
        public long SystemMicroseconds;
        public long MaxResidentSet;
        public long SharedMemory;
        public long UnsharedData;
        public long UnsharedStack;
        public long MinorFaults;
        public long MajorFaults;
        public long Swaps;
        public long BlockInputs;
        public long BlockOutputs;
        public long MessagesSent;
        public long MessagesReceived;
        public long Signals;
        public long VoluntarySwitches;
        public long InvoluntarySwitches;
    }

    private static bool IsRedis(string mode) => mode.StartsWith("redis", StringComparison.Ordinal);

    /// <summary>The client of a mode, its keys stored, and one call of it awaited and blocking.</summary>
    private static async Task<(Func<Random, Task> Awaited, Action<Random> Blocking, IAsyncDisposable Client)> ConnectAsync(string mode, string endpoint, byte[] value)
    {
        if (IsRedis(mode))
        {
            ConnectionMultiplexer redis = await ConnectionMultiplexer.ConnectAsync(StackExchangeRedisContender.Options(endpoint));
            IDatabase database = redis.GetDatabase();
            for (int i = 0; i < KeyCount; i++)
            {
                await database.StringSetAsync($"sync:{i}", value);
            }

            return (
                random => random.Next(10) == 0 ? database.StringSetAsync($"sync:{random.Next(KeyCount)}", value) : database.StringGetAsync($"sync:{random.Next(KeyCount)}"),
                random => _ = random.Next(10) == 0 ? database.StringSet($"sync:{random.Next(KeyCount)}", value) : database.StringGet($"sync:{random.Next(KeyCount)}").HasValue,
                redis);
        }

        var client = new MemcachedClient(new MemcachedClientOptions { Servers = { endpoint }, OperationTimeout = TimeSpan.FromSeconds(30) });
        for (int i = 0; i < KeyCount; i++)
        {
            await client.SetAsync($"sync:{i}", value);
        }

        if (mode.StartsWith("raw-socket", StringComparison.Ordinal))
        {
            // The ceiling of any synchronous client on this machine: each caller thread owns a blocking socket, writes
            // `mg <key> v` and reads its reply, with nothing between it and the kernel (no pipeline, no reader thread,
            // no signal): what a call costs when the only wait is the kernel's wake-up of the thread that recv()s.
            var sockets = new RawSockets(endpoint);
            return (
                _ => throw new NotSupportedException("the raw socket mode is synchronous only"),
                random => sockets.Get($"sync:{random.Next(KeyCount)}"),
                new CombinedDisposable(client, sockets));
        }

        if (mode.StartsWith("enyim", StringComparison.Ordinal))
        {
            // The compatibility client, as an EnyimMemcachedCore application calls it (IMemcachedClient's overloads).
            var enyim = new EnyimClient(client);
            return (
                random => random.Next(10) == 0 ? enyim.SetAsync($"sync:{random.Next(KeyCount)}", value, 0) : enyim.GetAsync<byte[]>($"sync:{random.Next(KeyCount)}"),
                random => _ = random.Next(10) == 0 ? enyim.Set($"sync:{random.Next(KeyCount)}", value, 0) : enyim.Get<byte[]>($"sync:{random.Next(KeyCount)}") is not null,
                client);
        }

        return (
            random => client.GetAsync<byte[]>($"sync:{random.Next(KeyCount)}"),
            random => _ = client.GetAsync<byte[]>($"sync:{random.Next(KeyCount)}").GetAwaiter().GetResult(),
            client);
    }

    /// <summary>One blocking socket per calling thread, each its own connection to memcached.</summary>
    private sealed class RawSockets(string endpoint) : IAsyncDisposable
    {
        private readonly ThreadLocal<(Socket Socket, byte[] Buffer)> _mine = new(() => Open(endpoint), trackAllValues: true);

        /// <summary>Reads one key; true on a hit. Throws when the reply is not a meta get's.</summary>
        internal bool Get(string key)
        {
            (Socket socket, byte[] buffer) = _mine.Value;
            int length = Encoding.ASCII.GetBytes($"mg {key} v\r\n", buffer);
            socket.Send(buffer.AsSpan(0, length));
            int read = 0;
            while (true)
            {
                read += socket.Receive(buffer.AsSpan(read));
                int line = buffer.AsSpan(0, read).IndexOf("\r\n"u8);
                if (line < 0)
                {
                    continue;
                }

                if (buffer.AsSpan(0, 2).SequenceEqual("EN"u8))
                {
                    return false;
                }

                if (!buffer.AsSpan(0, 3).SequenceEqual("VA "u8))
                {
                    throw new InvalidOperationException($"unexpected reply: {Encoding.ASCII.GetString(buffer, 0, line)}");
                }

                int space = buffer.AsSpan(3, line - 3).IndexOf((byte)' ');
                int size = int.Parse(buffer.AsSpan(3, space < 0 ? line - 3 : space), CultureInfo.InvariantCulture);
                int whole = line + 2 + size + 2;
                while (read < whole)
                {
                    read += socket.Receive(buffer.AsSpan(read));
                }

                return true;
            }
        }

        public ValueTask DisposeAsync()
        {
            foreach ((Socket socket, _) in _mine.Values)
            {
                socket.Dispose();
            }

            _mine.Dispose();
            return ValueTask.CompletedTask;
        }

        private static (Socket, byte[]) Open(string endpoint)
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            string[] parts = endpoint.Split(':');
            socket.Connect(IPAddress.Parse(parts[0]), int.Parse(parts[1], CultureInfo.InvariantCulture));
            return (socket, new byte[4096]);
        }
    }

    /// <summary>Disposes both, in order.</summary>
    private sealed class CombinedDisposable(IAsyncDisposable first, IAsyncDisposable second) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await first.DisposeAsync();
            await second.DisposeAsync();
        }
    }

    /// <summary>redis-server for the StackExchange.Redis modes, or null (those modes are left out) when it is not installed.</summary>
    private static RedisServer? StartRedis()
    {
        try
        {
            return RedisServer.Start();
        }
        catch (ServerUnavailableException ex)
        {
            Console.Error.WriteLine($"redis-server modes skipped: {ex.Message}");
            return null;
        }
    }

    /// <summary>Runs one mode in a fresh process (its thread pool at the default minimum) and returns its row.</summary>
    private static string RunChild(string mode, string endpoint, int seconds, int callers)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!)
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (string arg in (string[])[typeof(SyncOverAsyncExperiment).Assembly.Location, "sync-over-async", "--mode", mode, endpoint, seconds.ToString(CultureInfo.InvariantCulture), callers.ToString(CultureInfo.InvariantCulture)])
        {
            start.ArgumentList.Add(arg);
        }

        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath!) != "dotnet")
        {
            start.ArgumentList.RemoveAt(0); // an apphost: the assembly is the process itself
        }

        using Process child = Process.Start(start)!;
        string row = child.StandardOutput.ReadToEnd().TrimEnd();
        child.WaitForExit();
        return row;
    }
}
