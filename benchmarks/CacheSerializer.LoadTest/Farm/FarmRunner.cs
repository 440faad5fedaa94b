using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Farm;

/// <summary>The farm scenario (issue 17): N web servers, each an independent <see cref="MemcachedClient"/> with many
/// callers reading a few hot keys, while a schedule expires every hot key again and again; the "database" counts its
/// queries per expiry, mode by mode.</summary>
internal static class FarmRunner
{
    private const int MaxSamples = 5;

    /// <summary>Starts memcached, runs every mode in turn against it (flushed between modes), and stops it.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="log">Where progress lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current mode stops, the rest are skipped, the servers stop.</param>
    /// <param name="wrapTranscoder">Wraps each web server's transcoder (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how) or did not start.</exception>
    public static Task<FarmReport> RunAsync(FarmSettings settings, TextWriter log, CancellationToken cancellationToken, Func<ITranscoder, ITranscoder>? wrapTranscoder = null) =>
        ScenarioRunner.RunAsync(
            settings,
            memoryMegabytes: 256,
            $"{settings.Clients} web servers x {settings.CallersPerClient} callers, {settings.HotKeys} hot keys expiring every {settings.ExpireEvery.TotalSeconds:0.###} s, factory {settings.FactoryTime.TotalMilliseconds:0} ms, {settings.Duration.TotalSeconds:0.#} s per mode",
            settings.Modes,
            (mode, endpoints) => RunModeAsync(mode, endpoints, settings, wrapTranscoder, cancellationToken),
            result => $"{result.Mode}: {result.FactoryCalls:N0} factory calls for {result.Expiries} expiries ({result.CallsPerExpiry:0.00} per expiry, at most {result.MaxCallsPerExpiry}), {result.Reads:N0} reads, p99 {result.P99Milliseconds:0.0} ms, {result.Errors} errors, {result.Corruptions} corruptions, {result.LostWrites?.ToString(CultureInfo.InvariantCulture) ?? "unknown (evictions)"} lost writes",
            results => new FarmReport { Settings = settings, Modes = results },
            log,
            cancellationToken);

    private static async Task<FarmModeResult> RunModeAsync(FarmMode mode, string[] endpoints, FarmSettings settings, Func<ITranscoder, ITranscoder>? wrapTranscoder, CancellationToken cancellationToken)
    {
        string name = FarmSettings.NameOf(mode);
        var scheduleOptions = new MemcachedClientOptions();
        foreach (string endpoint in endpoints)
        {
            scheduleOptions.Servers.Add(endpoint);
        }

        await using var schedule = new MemcachedClient(scheduleOptions);
        await schedule.FlushAllAsync(cancellationToken).ConfigureAwait(false);
        ServerStats before = await ServerStats.ReadAsync(schedule, cancellationToken).ConfigureAwait(false);
        string[] keys = [.. Enumerable.Range(0, settings.HotKeys).Select(k => $"farm:{name}:{k}")];
        var ledger = new FactoryLedger(settings.HotKeys);
        var farm = new FarmWebServer[settings.Clients];
        for (int i = 0; i < farm.Length; i++)
        {
            farm[i] = FarmWebServer.Start(endpoints, settings, new CheckingTranscoder(
                wrapTranscoder?.Invoke(FarmWebServer.CreateTranscoder()) ?? FarmWebServer.CreateTranscoder(), value => Seen(ledger, value)));
        }

        var tally = new Tally();
        var clock = Stopwatch.StartNew();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        try
        {
            var callers = new List<Task<long[]>>();
            for (int server = 0; server < farm.Length; server++)
            {
                for (int caller = 0; caller < settings.CallersPerClient; caller++)
                {
                    var context = new CallerContext(mode, farm[server], server, keys, ledger, settings, tally, new Random(HashCode.Combine(settings.Seed, server, caller)));
                    callers.Add(Task.Run(() => CallerLoopAsync(context, stop.Token), CancellationToken.None));
                }
            }

            await ExpireOnScheduleAsync(mode, schedule, keys, ledger, settings, clock, cancellationToken).ConfigureAwait(false);
            await stop.CancelAsync().ConfigureAwait(false);
            long[][] latencies = await Task.WhenAll(callers).ConfigureAwait(false);
            double seconds = clock.Elapsed.TotalSeconds;
            ServerStats stats = (await ServerStats.ReadAsync(schedule, cancellationToken).ConfigureAwait(false)).Since(before);
            long? evictions = stats.Unavailable.Count == 0 && stats.Restarted.Count == 0 ? stats.Evictions : null;
            return Result(mode, ledger, tally, [.. farm.Select(f => f.Transcoder)], evictions, latencies, seconds, settings.FactoryTime);
        }
        finally
        {
            await stop.CancelAsync().ConfigureAwait(false);
            foreach (FarmWebServer server in farm)
            {
                await server.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    /// <summary>Every <see cref="FarmSettings.ExpireEvery"/>, starts the next epoch of every hot key and expires it:
    /// deletes it, or in <see cref="FarmMode.FarmStale"/> marks it stale.</summary>
    private static async Task ExpireOnScheduleAsync(FarmMode mode, MemcachedClient schedule, string[] keys, FactoryLedger ledger, FarmSettings settings, Stopwatch clock, CancellationToken cancellationToken)
    {
        GetOrCreateOptions stale = FarmWebServer.Options(settings, FarmWebServer.StaleWindow(settings));
        for (int round = 1; round * settings.ExpireEvery < settings.Duration; round++)
        {
            TimeSpan wait = (round * settings.ExpireEvery) - clock.Elapsed;
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, cancellationToken).ConfigureAwait(false);
            }

            for (int k = 0; k < keys.Length; k++)
            {
                ledger.NextEpoch(k);
                _ = mode == FarmMode.FarmStale
                    ? await schedule.InvalidateAsync(keys[k], stale, cancellationToken).ConfigureAwait(false)
                    : await schedule.DeleteAsync(keys[k], cancellationToken).ConfigureAwait(false);
                ledger.Expired(k);
            }
        }

        TimeSpan rest = settings.Duration - clock.Elapsed;
        if (rest > TimeSpan.Zero)
        {
            await Task.Delay(rest, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>One caller (a request in flight, over and over): reads a random hot key, times it, checks the value.</summary>
    /// <returns>The latency of every read, in microseconds.</returns>
    private static async Task<long[]> CallerLoopAsync(CallerContext context, CancellationToken stop)
    {
        var latencies = new List<long>(1024);
        while (!stop.IsCancellationRequested)
        {
            int k = context.Random.Next(context.Keys.Length);
            var probe = ReadProbe.Start();
            int epoch = context.Ledger.Epoch(k);
            long start = Stopwatch.GetTimestamp();
            string? value;
            try
            {
                value = await context.Server.ReadAsync(context.Mode, context.Keys[k], context.FactoryOf(k, epoch, start, probe), stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex) when (ex is MemcachedException or CacheSerializerException or InvalidOperationException)
            {
                context.Tally.Error($"{context.Keys[k]}: {ex.GetType().Name}: {ex.Message}");
                continue;
            }

            latencies.Add((long)Stopwatch.GetElapsedTime(start).TotalMicroseconds);
            context.Tally.Read(Check(context, k, value));
        }

        return [.. latencies];
    }

    /// <summary>A value is <c>k{key}|e{epoch}|s{server}</c>: of this key, and of this epoch or an earlier one.</summary>
    private static string? Check(CallerContext context, int k, string? value)
    {
        if (Parse(value) is not (int key, int epoch) || key != k)
        {
            return $"{context.Keys[k]}: read '{value}', not a value of this key";
        }

        int now = context.Ledger.Epoch(k);
        return epoch > now ? $"{context.Keys[k]}: read epoch {epoch} while the key is in epoch {now}" : epoch < now ? Tally.Stale : null;
    }

    /// <summary>Returns the key and epoch of a value <c>k{key}|e{epoch}|s{server}</c>, or null when it is not one.</summary>
    private static (int Key, int Epoch)? Parse(object? value)
    {
        string[] parts = (value as string)?.Split('|') ?? [];
        return parts.Length == 3 && parts[0].StartsWith('k') && parts[1].StartsWith('e')
            && int.TryParse(parts[0].AsSpan(1), NumberStyles.None, CultureInfo.InvariantCulture, out int key)
            && int.TryParse(parts[1].AsSpan(1), NumberStyles.None, CultureInfo.InvariantCulture, out int epoch)
            ? (key, epoch)
            : null;
    }

    /// <summary>A value read back from memcached by any web server: its epoch was stored.</summary>
    private static void Seen(FactoryLedger ledger, object? value)
    {
        if (Parse(value) is (int key, int epoch))
        {
            ledger.Seen(key, epoch);
        }
    }

    private static FarmModeResult Result(FarmMode mode, FactoryLedger ledger, Tally tally, CheckingTranscoder[] transcoders, long? evictions, long[][] latencies, double seconds, TimeSpan factoryTime)
    {
        // Every web server counted what it could not read; in the farm nothing changes a contract, so each is a corruption.
        var unreadable = new SortedDictionary<string, long>(StringComparer.Ordinal);
        foreach ((string reason, long count) in transcoders.SelectMany(t => t.UnreadableByReason()))
        {
            unreadable[reason] = unreadable.GetValueOrDefault(reason) + count;
        }

        int[] calls = ledger.CallsPerExpiry();
        long[] all = [.. latencies.SelectMany(l => l)];
        Array.Sort(all);
        double Percentile(double p) => all.Length == 0 ? 0 : all[Math.Min(all.Length - 1, (int)Math.Ceiling(p * all.Length) - 1)] / 1000.0;
        return new FarmModeResult
        {
            Mode = FarmSettings.NameOf(mode),
            Description = Describe(mode),
            Expiries = calls.Length,
            FactoryCalls = calls.Sum(c => (long)c),
            MinCallsPerExpiry = calls.Length == 0 ? 0 : calls.Min(),
            MaxCallsPerExpiry = calls.Length == 0 ? 0 : calls.Max(),
            CallsByExpiry = calls,
            Reads = tally.Reads,
            ReadsPerSecond = tally.Reads / seconds,
            StaleReads = tally.StaleReads,
            P50Milliseconds = Percentile(0.50),
            P99Milliseconds = Percentile(0.99),
            MaxMilliseconds = all.Length == 0 ? 0 : all[^1] / 1000.0,
            SlowReads = all.Length - LowerBound(all, (long)factoryTime.TotalMicroseconds),
            Errors = tally.Errors,
            Corruptions = tally.Findings.Corruptions + unreadable.Values.Sum(),
            Unreadable = unreadable,
            LostWrites = ReadFindings.LostWrites(tally.Findings.MissesOnStoredKeys, evictions),
            Samples = [.. tally.Samples().Concat(tally.Findings.LostWriteSamples).Take(MaxSamples),
                .. unreadable.Count > 0 ? [$"items no web server could read: {string.Join(", ", unreadable.Select(u => $"{u.Key} {u.Value:N0}"))}"] : Array.Empty<string>()],
        };
    }

    /// <summary>The index of the first value at least <paramref name="value"/> in a sorted array.</summary>
    private static int LowerBound(long[] sorted, long value)
    {
        int index = Array.BinarySearch(sorted, value);
        if (index < 0)
        {
            return ~index;
        }

        while (index > 0 && sorted[index - 1] == value)
        {
            index--;
        }

        return index;
    }

    /// <summary>Returns what a mode is, for the report.</summary>
    /// <param name="mode">The mode.</param>
    /// <returns>A short description.</returns>
    public static string Describe(FarmMode mode) => mode switch
    {
        FarmMode.Plain => "get, factory, set (GetAsync, SetAsync): no protection",
        FarmMode.Hybrid => "HybridCache.GetOrCreateAsync over the package's IDistributedCache, local cache off: in-process protection",
        FarmMode.Farm => "MemcachedClient.GetOrCreateAsync, keys deleted: one factory call per expiry in the farm",
        _ => "MemcachedClient.GetOrCreateAsync with a stale window, keys invalidated (InvalidateAsync): stale served while one refreshes",
    };

    /// <summary>What one caller needs.</summary>
    private sealed record CallerContext(FarmMode Mode, FarmWebServer Server, int ServerIndex, string[] Keys, FactoryLedger Ledger, FarmSettings Settings, Tally Tally, Random Random)
    {
        /// <summary>The database query of hot key <paramref name="k"/> for a read that started at <paramref name="readStarted"/>
        /// in epoch <paramref name="readEpoch"/>: counted in the ledger (and as a lost write when memcached held the
        /// epoch's value before the read started, and the read was not of an item it could not read), then as slow as
        /// the settings say.</summary>
        public Func<CancellationToken, Task<string>> FactoryOf(int k, int readEpoch, long readStarted, ReadProbe probe) => async _ =>
        {
            int epoch = Ledger.RecordCall(k);
            if (Ledger.FollowsStoredValue(k, epoch, readEpoch, readStarted) && probe.Unreadable is null)
            {
                Tally.Findings.MissOnStoredKey($"{Keys[k]}: a factory call in epoch {epoch}, whose value memcached was seen holding before the read started");
            }

            await Task.Delay(Settings.FactoryTime, CancellationToken.None).ConfigureAwait(false);
            return string.Create(CultureInfo.InvariantCulture, $"k{k}|e{epoch}|s{ServerIndex}");
        };
    }

    /// <summary>The counts every caller adds to.</summary>
    private sealed class Tally
    {
        /// <summary>What <see cref="Check"/> returns for a value of an earlier epoch.</summary>
        public const string Stale = "stale";

        private readonly MessageSamples _samples = new();
        private long _reads;
        private long _stale;
        private long _errors;

        /// <summary>Gets the corruptions (values of another key or a later epoch) and misses on stored values.</summary>
        public ReadFindings Findings { get; } = new();

        public long Reads => Interlocked.Read(ref _reads);

        public long StaleReads => Interlocked.Read(ref _stale);

        public long Errors => Interlocked.Read(ref _errors);

        /// <summary>Counts a read: good (null), stale, or corrupt (the message).</summary>
        public void Read(string? problem)
        {
            Interlocked.Increment(ref _reads);
            if (problem == Stale)
            {
                Interlocked.Increment(ref _stale);
            }
            else if (problem is not null)
            {
                Findings.Corruption(problem);
                _samples.Add(problem);
            }
        }

        public void Error(string message)
        {
            Interlocked.Increment(ref _errors);
            _samples.Add(message);
        }

        public IReadOnlyList<string> Samples() => _samples.ToList();
    }
}
