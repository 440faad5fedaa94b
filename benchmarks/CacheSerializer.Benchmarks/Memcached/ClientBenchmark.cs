using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using StackExchange.Redis;

namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>
/// Console mode <c>client-benchmark</c> (formerly <c>client-vs-memcaslap</c>, still accepted): our client and Debian's
/// memcaslap (libmemcached-tools) side by side on the same local memcached, and StackExchange.Redis on a local
/// redis-server, with the same value size, get/set mix (90/10), keys (10,000 of 64 bytes) and concurrency.
/// </summary>
/// <remarks>
/// This is a load comparison, not a micro-benchmark, so it is a console mode rather than a BenchmarkDotNet class.
/// Usage: <c>dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- client-benchmark [--tls] [seconds] [rounds] [valueBytes] [concurrency]</c>.
/// memcached, memcaslap and redis-server are installed with apt-get when missing (scripts/ensure-memcached.sh), and
/// every server the command starts is stopped when it ends, also when a run throws.
/// <para>With <c>--tls</c> the cost of TLS is measured instead: memcaslap has no TLS, so our client runs the same load
/// against a plaintext memcached and a TLS one (<c>-Z</c>, a throwaway certificate the client validates), alternately
/// in each round, and the ratio is TLS over plaintext.</para>
/// </remarks>
internal static partial class ClientBenchmark
{
    /// <summary>How many distinct keys each run picks from at random.</summary>
    internal const int KeyCount = 10_000;

    /// <summary>The length of every key, in bytes (ASCII).</summary>
    internal const int KeyLength = 64;

    internal static bool TryRun(string[] args)
    {
        // client-vs-memcaslap: the command's name before StackExchange.Redis joined; kept for existing notes and scripts.
        if (args.Length == 0 || args[0] is not ("client-benchmark" or "client-vs-memcaslap"))
        {
            return false;
        }

        bool tls = args.Contains("--tls");
        args = [.. args.Where(static a => a != "--tls")];
        int seconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 8;
        int rounds = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 1;
        int[] sizes = args.Length > 3 ? [int.Parse(args[3], CultureInfo.InvariantCulture)] : [100, 10 * 1024];
        int[] concurrencies = args.Length > 4 ? [int.Parse(args[4], CultureInfo.InvariantCulture)] : [16, 128];
        (tls ? RunTlsAsync(seconds, rounds, sizes, concurrencies) : RunAsync(seconds, rounds, sizes, concurrencies)).GetAwaiter().GetResult();
        return true;
    }

    private static async Task RunAsync(int seconds, int rounds, int[] sizes, int[] concurrencies)
    {
        EnsureInstalled();
        string memcaslap = Which("memcaslap") ?? throw new InvalidOperationException("memcaslap not found: apt-get install -y libmemcached-tools");
        // The same launchers the tests and the load test use: free loopback ports, killed on dispose even if a run throws.
        using var server = MemcachedServer.Start("-m 512");
        // As memcached -m 512: at most 512 MB, least recently used keys evicted first; nothing persisted (RedisServer).
        using var redis = RedisServer.Start("--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru");
        string endpoint = server.Endpoint;
        // memcached's own CPU time (stats rusage) over each run, read by a client of its own outside the timed window;
        // and its version, as it reports it.
        await using var statsClient = new MemcachedClient(new MemcachedClientOptions { Servers = { endpoint } });
        Console.WriteLine($"# {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}, load average {LoadAverage()}");
        Console.WriteLine($"# memcached {await ServerVersionAsync(statsClient)} at {endpoint} (-t 2 -m 512) for memcaslap and MemcachedClient; redis-server {await StackExchangeRedisContender.ServerVersionAsync(redis.Endpoint)} at {redis.Endpoint} (--maxmemory 512mb, allkeys-lru, no persistence) for StackExchange.Redis {StackExchangeRedisContender.ClientVersion}");
        Console.WriteLine($"# {seconds} s per run, {rounds} round(s), 90% get / 10% set, {KeyCount:N0} keys of {KeyLength} bytes; server CPU is memcached's for the first two rows, redis-server's for the third");
        Console.WriteLine();
        Console.WriteLine("| Value | Concurrency | Contender | ops/s | p50 | p99 | client CPU µs/op | server CPU µs/op | allocated B/op | Ratio (ops/s vs memcaslap) | ours vs SE.Redis (ops/s) | ours vs SE.Redis (client CPU/op) |");
        Console.WriteLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (int valueSize in sizes)
        {
            foreach (int concurrency in concurrencies)
            {
                for (int round = 0; round < rounds; round++)
                {
                    double serverBefore = await ServerCpuSecondsAsync(statsClient);
                    RunResult theirs = RunMemcaslap(memcaslap, endpoint, valueSize, concurrency, seconds);
                    double theirServer = (await ServerCpuSecondsAsync(statsClient) - serverBefore) * 1_000_000 / (theirs.OpsPerSecond * seconds);
                    // Our client and StackExchange.Redis take turns going first, so drift on a shared machine hits both alike.
                    RunResult ours;
                    RunResult se;
                    if (round % 2 == 0)
                    {
                        ours = await RunClientAsync(Options(endpoint), valueSize, concurrency, seconds, statsClient);
                        se = await StackExchangeRedisContender.RunAsync(redis, valueSize, concurrency, seconds);
                    }
                    else
                    {
                        se = await StackExchangeRedisContender.RunAsync(redis, valueSize, concurrency, seconds);
                        ours = await RunClientAsync(Options(endpoint), valueSize, concurrency, seconds, statsClient);
                    }

                    string size = SizeName(valueSize);
                    Console.WriteLine($"| {size} | {concurrency} | memcaslap (-T 2 -c {concurrency}) | {theirs.OpsPerSecond:N0} | {theirs.P50} | {theirs.P99} | {theirs.CpuMicrosPerOp:F1} | {theirServer:F1} | n/a | 1.00 | n/a | n/a |");
                    Console.WriteLine($"| {size} | {concurrency} | MemcachedClient ({concurrency} tasks) | {ours.OpsPerSecond:N0} | {ours.P50} | {ours.P99} | {ours.CpuMicrosPerOp:F1} | {ours.ServerCpuMicrosPerOp:F1} | {ours.AllocatedPerOp:N0} | {ours.OpsPerSecond / theirs.OpsPerSecond:F2} | {ours.OpsPerSecond / se.OpsPerSecond:F2} | {ours.CpuMicrosPerOp / se.CpuMicrosPerOp:F2} |");
                    Console.WriteLine($"| {size} | {concurrency} | StackExchange.Redis ({concurrency} tasks) | {se.OpsPerSecond:N0} | {se.P50} | {se.P99} | {se.CpuMicrosPerOp:F1} | {se.ServerCpuMicrosPerOp:F1} | {se.AllocatedPerOp:N0} | {se.OpsPerSecond / theirs.OpsPerSecond:F2} | 1.00 | 1.00 |");
                }
            }
        }

        Console.WriteLine();
        Console.WriteLine($"# load average at the end {LoadAverage()}");
    }

    /// <summary>Installs what is missing of memcached, memcaslap and redis-server with the repository's script
    /// (apt-get), as the test suite does; without the script, the launchers' messages name the packages.</summary>
    private static void EnsureInstalled()
    {
        if (Which("memcached") is not null && Which("memcaslap") is not null && Which("redis-server") is not null)
        {
            return;
        }

        string? script = new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory }
            .SelectMany(static start => Ancestors(new DirectoryInfo(start)))
            .Select(static dir => Path.Combine(dir.FullName, "scripts", "ensure-memcached.sh"))
            .FirstOrDefault(File.Exists);
        if (script is null)
        {
            return;
        }

        using Process install = Process.Start(new ProcessStartInfo("bash", [script, "--tools", "--redis"]) { UseShellExecute = false })
            ?? throw new InvalidOperationException("bash did not start");
        install.WaitForExit();
        if (install.ExitCode != 0)
        {
            throw new InvalidOperationException($"{script} --tools --redis exited with {install.ExitCode}");
        }

        static IEnumerable<DirectoryInfo> Ancestors(DirectoryInfo? dir)
        {
            for (; dir is not null; dir = dir.Parent)
            {
                yield return dir;
            }
        }
    }

    /// <summary>The cost of TLS: the same load from our client against a plaintext and a TLS memcached (memcaslap has
    /// no TLS), plaintext first in odd rounds and TLS first in even ones, so drift on a shared machine hits both alike.</summary>
    private static async Task RunTlsAsync(int seconds, int rounds, int[] sizes, int[] concurrencies)
    {
        using var certificates = ThrowawayCertificates.Create();
        using var plain = MemcachedServer.Start("-m 512");
        using var secure = MemcachedServer.Start("-m 512", new MemcachedServerSecurity { Certificate = certificates.Server });
        MemcachedClientOptions PlainOptions() => Options(plain.Endpoint);
        MemcachedClientOptions TlsOptions()
        {
            MemcachedClientOptions options = Options(secure.Endpoint);
            options.Tls.Enabled = true;
            options.Tls.CaCertificatePath = certificates.CaPath;
            return options;
        }

        await using var plainStats = new MemcachedClient(PlainOptions());
        await using var tlsStats = new MemcachedClient(TlsOptions());
        Console.WriteLine($"# {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}, load average {LoadAverage()}");
        Console.WriteLine($"# TLS cost: MemcachedClient against memcached {await ServerVersionAsync(plainStats)} plaintext ({plain.Endpoint}) and TLS ({secure.Endpoint}, -Z, ECDSA P-256 certificate validated); both -t 2 -m 512; {seconds} s per run, {rounds} round(s), 90% get / 10% set, {KeyLength}-byte keys. memcaslap has no TLS, so it is not run.");
        Console.WriteLine();
        Console.WriteLine("| Value | Concurrency | Connection | ops/s | p50 | p99 | client CPU µs/op | memcached CPU µs/op | allocated B/op | Ratio (ops/s vs plaintext) | CPU/op ratio (client, memcached) |");
        Console.WriteLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (int valueSize in sizes)
        {
            foreach (int concurrency in concurrencies)
            {
                for (int round = 0; round < rounds; round++)
                {
                    RunResult plainRun;
                    RunResult tlsRun;
                    if (round % 2 == 0)
                    {
                        plainRun = await RunClientAsync(PlainOptions(), valueSize, concurrency, seconds, plainStats);
                        tlsRun = await RunClientAsync(TlsOptions(), valueSize, concurrency, seconds, tlsStats);
                    }
                    else
                    {
                        tlsRun = await RunClientAsync(TlsOptions(), valueSize, concurrency, seconds, tlsStats);
                        plainRun = await RunClientAsync(PlainOptions(), valueSize, concurrency, seconds, plainStats);
                    }

                    string size = SizeName(valueSize);
                    Console.WriteLine($"| {size} | {concurrency} | plaintext | {plainRun.OpsPerSecond:N0} | {plainRun.P50} | {plainRun.P99} | {plainRun.CpuMicrosPerOp:F1} | {plainRun.ServerCpuMicrosPerOp:F1} | {plainRun.AllocatedPerOp:N0} | 1.00 | 1.00, 1.00 |");
                    Console.WriteLine($"| {size} | {concurrency} | TLS | {tlsRun.OpsPerSecond:N0} | {tlsRun.P50} | {tlsRun.P99} | {tlsRun.CpuMicrosPerOp:F1} | {tlsRun.ServerCpuMicrosPerOp:F1} | {tlsRun.AllocatedPerOp:N0} | {tlsRun.OpsPerSecond / plainRun.OpsPerSecond:F2} | {tlsRun.CpuMicrosPerOp / plainRun.CpuMicrosPerOp:F2}, {tlsRun.ServerCpuMicrosPerOp / plainRun.ServerCpuMicrosPerOp:F2} |");
                }
            }
        }

        Console.WriteLine();
        Console.WriteLine($"# load average at the end {LoadAverage()}");
    }

    private static MemcachedClientOptions Options(string endpoint) => new() { Servers = { endpoint }, OperationTimeout = TimeSpan.FromSeconds(10), OnServerFailure = ServerFailurePolicy.Throw };

    private static string SizeName(int valueSize) => valueSize switch
    {
        100 => "100 B",
        10 * 1024 => "10 KB",
        _ => $"{valueSize} B",
    };

    private static string LoadAverage() => File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "n/a";

    /// <summary>The version the one server of <paramref name="statsClient"/> reports (<c>stats</c>, "version"), for the
    /// header of a run: what ran, not what the apt package was when the benchmark was written.</summary>
    internal static async Task<string> ServerVersionAsync(MemcachedClient statsClient) =>
        (await statsClient.GetStatsAsync()).Values.Single()["version"];

    private static async Task<double> ServerCpuSecondsAsync(MemcachedClient statsClient)
    {
        IReadOnlyDictionary<string, string> stats = (await statsClient.GetStatsAsync()).Values.Single();
        return double.Parse(stats["rusage_user"], CultureInfo.InvariantCulture) + double.Parse(stats["rusage_system"], CultureInfo.InvariantCulture);
    }

    /// <summary>The keys every contender uses: <see cref="KeyCount"/> of <see cref="KeyLength"/> ASCII bytes.</summary>
    internal static string[] Keys() => Enumerable.Range(0, KeyCount).Select(i => $"bench:{i:D10}:".PadRight(KeyLength, 'k')).ToArray();

    /// <summary>A random value of <paramref name="valueSize"/> bytes.</summary>
    internal static byte[] Value(int valueSize)
    {
        byte[] value = new byte[valueSize];
        Random.Shared.NextBytes(value);
        return value;
    }

    /// <summary>Runs <paramref name="drive"/> for a 1 s warm-up (JIT, connections), then for <paramref name="seconds"/>
    /// measured: operations, latency, this process's CPU time and allocations, and the server's CPU time, per operation.</summary>
    /// <param name="drive">Runs the load for the given time, recording each call's latency (µs) into the histogram when one is given, and returns the operations done.</param>
    /// <param name="serverCpuSeconds">Reads the server's CPU time so far, in seconds.</param>
    /// <param name="seconds">How long the measured run lasts.</param>
    internal static async Task<RunResult> MeasureAsync(Func<TimeSpan, long[]?, Task<long>> drive, Func<Task<double>> serverCpuSeconds, int seconds)
    {
        await drive(TimeSpan.FromSeconds(1), null);
        long[] histogram = new long[1_000_001];
        using var self = Process.GetCurrentProcess();
        TimeSpan cpuBefore = self.TotalProcessorTime;
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: false);
        double serverBefore = await serverCpuSeconds();
        var clock = Stopwatch.StartNew();
        long ops = await drive(TimeSpan.FromSeconds(seconds), histogram);
        double elapsed = clock.Elapsed.TotalSeconds;
        long allocated = GC.GetTotalAllocatedBytes(precise: false) - allocatedBefore;
        self.Refresh();
        double cpu = (self.TotalProcessorTime - cpuBefore).TotalMicroseconds;
        double server = (await serverCpuSeconds() - serverBefore) * 1_000_000;
        return new RunResult(ops / elapsed, Percentile(histogram, ops, 0.50), Percentile(histogram, ops, 0.99), cpu / ops, (double)allocated / ops, server / ops);
    }

    /// <summary>Records one call's latency, from <paramref name="start"/> (a <see cref="Stopwatch"/> timestamp) to now, in 1 µs buckets (the last one is "1 s or more").</summary>
    internal static void Record(long[]? histogram, long start)
    {
        if (histogram is not null)
        {
            long micros = (Stopwatch.GetTimestamp() - start) * 1_000_000 / Stopwatch.Frequency;
            Interlocked.Increment(ref histogram[Math.Min(micros, histogram.Length - 1)]);
        }
    }

    private static async Task<RunResult> RunClientAsync(MemcachedClientOptions options, int valueSize, int concurrency, int seconds, MemcachedClient statsClient)
    {
        await using var client = new MemcachedClient(options);
        string[] keys = Keys();
        byte[] value = Value(valueSize);
        foreach (string[] chunk in keys.Chunk(500))
        {
            MemcachedStoreResult[] stored = await Task.WhenAll(chunk.Select(k => client.SetAsync(k, value)));
            if (stored.FirstOrDefault(static r => r != MemcachedStoreResult.Stored) is var failed and not MemcachedStoreResult.Stored)
            {
                throw new InvalidOperationException($"filling the keys: a set answered {failed}");
            }
        }

        return await MeasureAsync(
            (duration, histogram) => DriveAsync(
                keys, value.Length, concurrency, duration, histogram, k => client.SetAsync(k, value), k => client.GetAsync<byte[]>(k), static hit => hit.Found ? hit.Value : null),
            () => ServerCpuSecondsAsync(statsClient),
            seconds);
    }

    /// <summary>The loop every client runs: <paramref name="concurrency"/> tasks until <paramref name="duration"/> has
    /// passed, each a random key, 10% sets and 90% gets whose length must be the value's (a miss or another length throws).</summary>
    /// <typeparam name="TReply">What the client's get returns.</typeparam>
    /// <param name="keys">The keys, all stored before.</param>
    /// <param name="valueLength">The length of the stored value.</param>
    /// <param name="concurrency">The tasks.</param>
    /// <param name="duration">How long to run.</param>
    /// <param name="histogram">Latencies in microseconds, or <see langword="null"/> during the warm-up.</param>
    /// <param name="set">Stores the value under a key.</param>
    /// <param name="get">Reads a key.</param>
    /// <param name="bytes">The bytes of a reply, or <see langword="null"/> for a miss.</param>
    /// <returns>The operations done.</returns>
    internal static async Task<long> DriveAsync<TReply>(
        string[] keys, int valueLength, int concurrency, TimeSpan duration, long[]? histogram, Func<string, Task> set, Func<string, Task<TReply>> get, Func<TReply, byte[]?> bytes)
    {
        long deadline = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long total = 0;
        Task[] workers = Enumerable.Range(0, concurrency).Select(w => Task.Run(async () =>
        {
            var random = new Random(w);
            long done = 0;
            while (Stopwatch.GetTimestamp() < deadline)
            {
                string key = keys[random.Next(keys.Length)];
                long start = Stopwatch.GetTimestamp();
                if (random.Next(10) == 0)
                {
                    await set(key).ConfigureAwait(false);
                }
                else
                {
                    byte[]? hit = bytes(await get(key).ConfigureAwait(false));
                    if (hit is null || hit.Length != valueLength)
                    {
                        throw new InvalidOperationException($"wrong reply for {key}: {(hit is null ? "a miss" : $"{hit.Length} bytes instead of {valueLength}")}");
                    }
                }

                Record(histogram, start);
                done++;
            }

            Interlocked.Add(ref total, done);
        })).ToArray();
        await Task.WhenAll(workers).ConfigureAwait(false);
        return total;
    }

    private static string Percentile(long[] histogram, long count, double fraction)
    {
        long target = (long)Math.Ceiling(count * fraction);
        long seen = 0;
        for (int micros = 0; micros < histogram.Length; micros++)
        {
            seen += histogram[micros];
            if (seen >= target)
            {
                return $"{micros} µs";
            }
        }

        return "> 1 s";
    }

    private static RunResult RunMemcaslap(string memcaslap, string endpoint, int valueSize, int concurrency, int seconds)
    {
        string config = Path.Combine(Path.GetTempPath(), $"memcaslap-{valueSize}.cfg");
        File.WriteAllText(config, $"key\n{KeyLength} {KeyLength} 1\nvalue\n{valueSize} {valueSize} 1\ncmd\n0 0.1\n1 0.9\n");
        // Through bash, whose `times` then prints the CPU time memcaslap used (user and system), on stdout's last line.
        var info = new ProcessStartInfo("bash", ["-c", $"\"$0\" -s {endpoint} -T 2 -c {concurrency} -t {seconds}s -S {seconds}s -F {config}; times", memcaslap])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        using Process process = Process.Start(info)!;
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        _ = stderr.Result;
        Match times = TimesPattern().Match(output);
        double cpu = times.Success
            ? (MinutesSeconds(times.Groups[1].Value, times.Groups[2].Value) + MinutesSeconds(times.Groups[3].Value, times.Groups[4].Value)) * 1_000_000
            : double.NaN;
        Match tps = TpsPattern().Match(output);
        if (!tps.Success)
        {
            throw new InvalidOperationException("memcaslap printed no TPS line:\n" + output);
        }

        (string p50, string p99) = Log2Percentiles(output);
        double opsPerSecond = double.Parse(tps.Groups[1].Value, CultureInfo.InvariantCulture);
        return new RunResult(opsPerSecond, p50, p99, cpu / (opsPerSecond * seconds), double.NaN, double.NaN);
    }

    /// <summary>memcaslap reports latency as a log2 histogram (µs): rows "N: c(2^N) c(2^(N+1)) c(2^(N+2)) c(2^(N+3))".</summary>
    private static (string P50, string P99) Log2Percentiles(string output)
    {
        int total = output.LastIndexOf("Total Statistics", StringComparison.Ordinal);
        if (total < 0)
        {
            return ("n/a", "n/a");
        }

        var buckets = new SortedDictionary<int, long>();
        foreach (Match row in Log2RowPattern().Matches(output[total..]))
        {
            int exponent = int.Parse(row.Groups[1].Value, CultureInfo.InvariantCulture);
            string[] counts = row.Groups[2].Value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            for (int i = 0; i < counts.Length; i++)
            {
                buckets[exponent + i] = long.Parse(counts[i], CultureInfo.InvariantCulture);
            }
        }

        long count = buckets.Values.Sum();
        string At(double fraction)
        {
            long seen = 0;
            foreach ((int exponent, long n) in buckets)
            {
                seen += n;
                if (seen >= count * fraction)
                {
                    return $"{1L << exponent}-{(1L << (exponent + 1)) - 1} µs";
                }
            }

            return "n/a";
        }

        return (At(0.50), At(0.99));
    }

    private static string? Which(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(':')
            .Select(dir => Path.Combine(dir, name)).FirstOrDefault(File.Exists);

    private static double MinutesSeconds(string minutes, string seconds) =>
        (double.Parse(minutes, CultureInfo.InvariantCulture) * 60) + double.Parse(seconds, CultureInfo.InvariantCulture);

    /// <summary>The second line of bash's <c>times</c>: the children's user and system time, e.g. <c>0m1.234s 0m0.567s</c>.</summary>
    [GeneratedRegex(@"^(\d+)m([0-9.]+)s (\d+)m([0-9.]+)s\s*$", RegexOptions.Multiline | RegexOptions.RightToLeft)]
    private static partial Regex TimesPattern();

    [GeneratedRegex(@"TPS:\s*([0-9.]+)")]
    private static partial Regex TpsPattern();

    [GeneratedRegex(@"^\s+(\d+):((?:\s+\d+)+)\s*$", RegexOptions.Multiline)]
    private static partial Regex Log2RowPattern();

    /// <summary>One run: throughput, latency, the contender's own CPU time and (.NET clients) allocation per operation, and the server's CPU time per operation.</summary>
    internal readonly record struct RunResult(double OpsPerSecond, string P50, string P99, double CpuMicrosPerOp, double AllocatedPerOp, double ServerCpuMicrosPerOp);
}
