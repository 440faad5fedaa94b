using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>
/// Console mode <c>sync-over-async</c>: what an EnyimMemcachedCore application's synchronous calls cost if they block on
/// this client's tasks (<c>GetAsync(key).GetAwaiter().GetResult()</c>), against the same reads awaited; the measurement
/// behind docs/migrating-from-enyim.md, "Synchronous calls".
/// </summary>
/// <remarks>
/// Usage: <c>dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- sync-over-async [seconds] [callers]</c>.
/// One local memcached, 1,000 keys of 100 bytes, <c>callers</c> loops reading random keys (64 by default, an ASP.NET
/// server's worth of concurrent requests), in three modes, each in a process of its own so that threads one mode
/// makes the pool add do not help the next: awaited on the pool; blocking on the pool (a synchronous controller);
/// blocking on threads of their own (the callers hold no pool thread). The pool starts at its default minimum (one
/// thread per core).
/// </remarks>
internal static class SyncOverAsyncExperiment
{
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
            RunModeAsync(args[2], args[3], int.Parse(args[4], CultureInfo.InvariantCulture), int.Parse(args[5], CultureInfo.InvariantCulture)).GetAwaiter().GetResult();
            return true;
        }

        int seconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 10;
        int callers = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 64;
        using var server = MemcachedServer.Start("-m 64");
        Console.WriteLine($"# {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, .NET {Environment.Version}; memcached at {server.Endpoint}; {callers} callers, {seconds} s per mode, each mode in a fresh process");
        Console.WriteLine();
        Console.WriteLine("| Mode | reads/s | p50 ms | p99 ms | max ms | first 1,000 reads, ms | pool threads at end |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (string mode in new[] { "awaited", "blocking-own-threads", "blocking-on-pool" })
        {
            var start = new ProcessStartInfo(Environment.ProcessPath!)
            {
                RedirectStandardOutput = true,
                UseShellExecute = false,
            };
            foreach (string arg in (string[])[typeof(SyncOverAsyncExperiment).Assembly.Location, "sync-over-async", "--mode", mode, server.Endpoint, seconds.ToString(CultureInfo.InvariantCulture), callers.ToString(CultureInfo.InvariantCulture)])
            {
                start.ArgumentList.Add(arg);
            }

            if (Path.GetFileNameWithoutExtension(Environment.ProcessPath!) != "dotnet")
            {
                start.ArgumentList.RemoveAt(0); // an apphost: the assembly is the process itself
            }

            using Process child = Process.Start(start)!;
            Console.WriteLine(child.StandardOutput.ReadToEnd().TrimEnd());
            child.WaitForExit();
        }

        return true;
    }

    private static async Task RunModeAsync(string mode, string endpoint, int seconds, int callers)
    {
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { endpoint }, OperationTimeout = TimeSpan.FromSeconds(30) });
        byte[] value = new byte[100];
        for (int i = 0; i < KeyCount; i++)
        {
            await client.SetAsync($"sync:{i}", value);
        }

        var latencies = new List<double>[callers];
        long finished = 0;
        long firstThousandTicks = 0;
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

        void Blocking(int caller)
        {
            var random = new Random(caller);
            latencies[caller] = [];
            while (Stopwatch.GetTimestamp() < end)
            {
                long began = Stopwatch.GetTimestamp();
                _ = client.GetAsync<byte[]>($"sync:{random.Next(KeyCount)}").GetAwaiter().GetResult();
                Record(caller, began);
            }
        }

        async Task Awaited(int caller)
        {
            var random = new Random(caller);
            latencies[caller] = [];
            while (Stopwatch.GetTimestamp() < end)
            {
                long began = Stopwatch.GetTimestamp();
                _ = await client.GetAsync<byte[]>($"sync:{random.Next(KeyCount)}").ConfigureAwait(false);
                Record(caller, began);
            }
        }

        switch (mode)
        {
            case "awaited":
                await Task.WhenAll(Enumerable.Range(0, callers).Select(c => Task.Run(() => Awaited(c))));
                break;
            case "blocking-on-pool":
                await Task.WhenAll(Enumerable.Range(0, callers).Select(c => Task.Run(() => Blocking(c))));
                break;
            default:
                Thread[] threads = [.. Enumerable.Range(0, callers).Select(c => new Thread(() => Blocking(c)) { IsBackground = true })];
                Array.ForEach(threads, t => t.Start());
                Array.ForEach(threads, t => t.Join());
                break;
        }

        double elapsed = clock.Elapsed.TotalSeconds;
        double[] all = [.. latencies.SelectMany(l => l).Order()];
        double Percentile(double p) => all.Length == 0 ? double.NaN : all[Math.Min(all.Length - 1, (int)(p * all.Length))];
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"| {mode} | {all.Length / elapsed:N0} | {Percentile(0.5):F2} | {Percentile(0.99):F2} | {all[^1]:F0} | {(firstThousandTicks == 0 ? "not reached" : (firstThousandTicks * 1000.0 / Stopwatch.Frequency).ToString("F0", CultureInfo.InvariantCulture))} | {ThreadPool.ThreadCount} |"));
    }
}
