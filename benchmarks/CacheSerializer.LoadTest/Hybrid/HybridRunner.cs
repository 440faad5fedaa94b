using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;
using StackExchange.Redis;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The hybrid scenario (issue 39, item 7): the same farm workload through each HybridCache contender in turn,
/// on a memcached and a redis-server started here (both flushed between contenders); the source of truth counts its
/// queries per (key, version), every read is checked against the removals completed before it began.</summary>
internal static class HybridRunner
{
    /// <summary>The flags of a read that skips L1: what it returns comes from L2 (or its factory).</summary>
    private const HybridCacheEntryFlags SkipL1 = HybridCacheEntryFlags.DisableLocalCacheRead | HybridCacheEntryFlags.DisableLocalCacheWrite;

    /// <summary>Starts redis-server and memcached, runs every contender in turn against them, and stops them.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="log">Where progress lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current contender stops, the rest are skipped, the servers stop.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached or redis-server is not installed (the message says how) or did not start.</exception>
    public static async Task<HybridReport> RunAsync(HybridSettings settings, TextWriter log, CancellationToken cancellationToken)
    {
        settings.Validate();
        using var redis = RedisServer.Start();
        void StopRedis(object? sender, EventArgs e) => redis.Dispose();
        AppDomain.CurrentDomain.ProcessExit += StopRedis;
        try
        {
            return await ScenarioRunner.RunAsync(
                settings,
                memoryMegabytes: 256,
                $"redis-server: {redis.Endpoint}; {settings.Clients} web servers x {settings.CallersPerClient} callers on {settings.Keys} keys, a row updated and removed every {settings.UpdateEvery.TotalMilliseconds:0} ms, {settings.Duration.TotalSeconds:0.#} s per contender",
                settings.Contenders,
                (contender, endpoints) => RunContenderAsync(contender, endpoints, redis.Endpoint, settings, cancellationToken),
                r => $"{r.Contender}: {r.Reads + r.L2Reads:N0} reads ({r.ReadsPerSecond:N0}/s, {r.HitRate:P1} hits), stale {r.StaleReads:N0} ({r.StaleShare:P2}), at L2 {r.StaleL2Reads:N0}, {r.CallsPerVersion:0.00} factory calls per (key, version) (at most {r.MaxCallsPerVersion}), {r.Errors} errors, {r.Corruptions} corruptions",
                results => new HybridReport { Settings = settings, Redis = redis.Endpoint, Contenders = results },
                log,
                cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            AppDomain.CurrentDomain.ProcessExit -= StopRedis;
        }
    }

    /// <summary>Returns what a contender is, for the report.</summary>
    /// <param name="contender">The contender.</param>
    /// <returns>A short description.</returns>
    public static string Describe(HybridContender contender) => contender switch
    {
        HybridContender.Bounded => "the package's HybridCache (AddMemcached + AddMemcachedHybridCache), L1 coherence Bounded (its default)",
        HybridContender.Strict => "the package's HybridCache, L1 coherence Strict (an L1 hit checked with a CAS-only read)",
        HybridContender.MicrosoftMemcached => "Microsoft's HybridCache 10.11.0 over the package (AddMemcached + AddHybridCache + AddHybridCacheTranscoder), L1 on",
        HybridContender.MicrosoftRedis => "Microsoft's HybridCache 10.11.0 over Redis (Microsoft.Extensions.Caching.StackExchangeRedis 10.0.15), L1 on",
        HybridContender.FusionBackplane => "FusionCache 2.9.0 (as HybridCache) over Redis with its Redis backplane, no distributed locker",
        _ => "FusionCache 2.9.0 (as HybridCache) over Redis with its Redis backplane and its Redis distributed locker",
    };

    private static async Task<HybridContenderResult> RunContenderAsync(HybridContender contender, string[] memcached, string redis, HybridSettings settings, CancellationToken cancellationToken)
    {
        await FlushAsync(memcached, redis, cancellationToken).ConfigureAwait(false);
        string name = HybridSettings.NameOf(contender);
        string[] keys = [.. Enumerable.Range(0, settings.Keys).Select(k => $"hybrid:{name}:{k}")];
        var truth = new SourceOfTruth(settings.Keys);
        var tally = new Tally();
        var farm = new HybridWebServer[settings.Clients];
        var callers = new List<CallerLoops>();
        try
        {
            for (int i = 0; i < farm.Length; i++)
            {
                farm[i] = HybridWebServer.Start(contender, memcached, redis, settings);
            }

            using var self = Process.GetCurrentProcess();
            TimeSpan cpuBefore = self.TotalProcessorTime;
            var clock = Stopwatch.StartNew();
            for (int server = 0; server < farm.Length; server++)
            {
                HybridCache cache = farm[server].Cache;
                callers.Add(new CallerLoops(
                    settings.CallersPerClient,
                    HashCode.Combine(settings.Seed, server),
                    (random, stop) => CallerLoopAsync(new Caller(cache, keys, truth, settings, tally, random), stop)));
            }

            long updates = await UpdateOnScheduleAsync(farm, keys, truth, settings, tally, clock, cancellationToken).ConfigureAwait(false);
            foreach (CallerLoops loops in callers)
            {
                await loops.StopAsync().ConfigureAwait(false);
            }

            callers.Clear();
            double seconds = clock.Elapsed.TotalSeconds;
            self.Refresh();
            TimeSpan cpu = self.TotalProcessorTime - cpuBefore;
            int[] calls = truth.CallsPerVersion();
            long reads = tally.Reads + tally.L2Reads;
            return new HybridContenderResult
            {
                Contender = name,
                Description = Describe(contender),
                Reads = tally.Reads,
                StaleReads = tally.StaleReads,
                L2Reads = tally.L2Reads,
                StaleL2Reads = tally.StaleL2Reads,
                Hits = tally.Hits,
                FactoryCalls = calls.Sum(c => (long)c),
                VersionsCreated = calls.Length,
                MaxCallsPerVersion = calls.Length == 0 ? 0 : calls.Max(),
                Updates = updates,
                ReadsPerSecond = reads / seconds,
                CpuMicrosecondsPerRead = reads == 0 ? 0 : cpu.TotalMicroseconds / reads,
                Errors = tally.Errors,
                Corruptions = tally.Corruptions,
                Samples = tally.Samples(),
            };
        }
        finally
        {
            foreach (CallerLoops loops in callers)
            {
                await loops.StopAsync().ConfigureAwait(false);
            }

            foreach (HybridWebServer? server in farm)
            {
                if (server is not null)
                {
                    await server.DisposeAsync().ConfigureAwait(false);
                }
            }
        }
    }

    /// <summary>Empties memcached and redis-server, so that no contender reads what the one before it left.</summary>
    private static async Task FlushAsync(string[] memcached, string redis, CancellationToken cancellationToken)
    {
        var options = new MemcachedClientOptions();
        foreach (string endpoint in memcached)
        {
            options.Servers.Add(endpoint);
        }

        await using (var client = new MemcachedClient(options))
        {
            await client.FlushAllAsync(cancellationToken).ConfigureAwait(false);
        }

        await using ConnectionMultiplexer connection = await ConnectionMultiplexer.ConnectAsync($"{redis},allowAdmin=true").ConfigureAwait(false);
        await connection.GetServer(redis).FlushAllDatabasesAsync().ConfigureAwait(false);
    }

    /// <summary>Every <see cref="HybridSettings.UpdateEvery"/>, updates a random row and removes its key on a random web
    /// server. The removals run side by side, not one after the other: a removal may take longer than the interval (the
    /// package's Bounded mode returns only after its bound).</summary>
    /// <returns>The updates made.</returns>
    private static async Task<long> UpdateOnScheduleAsync(HybridWebServer[] farm, string[] keys, SourceOfTruth truth, HybridSettings settings, Tally tally, Stopwatch clock, CancellationToken cancellationToken)
    {
        var random = new Random(HashCode.Combine(settings.Seed, "updates"));
        var removals = new List<Task>();
        for (int round = 1; round * settings.UpdateEvery < settings.Duration; round++)
        {
            await ScenarioRunner.WaitUntilAsync(clock, round * settings.UpdateEvery, cancellationToken).ConfigureAwait(false);
            int k = random.Next(keys.Length);
            HybridCache cache = farm[random.Next(farm.Length)].Cache;
            removals.Add(UpdateAsync(cache, keys[k], k, truth, tally));
        }

        await ScenarioRunner.WaitUntilAsync(clock, settings.Duration, cancellationToken).ConfigureAwait(false);
        await Task.WhenAll(removals).ConfigureAwait(false);
        return removals.Count;
    }

    /// <summary>One update: the row's next version, then <c>RemoveAsync</c>; once it returns, older versions are stale.</summary>
    private static async Task UpdateAsync(HybridCache cache, string key, int k, SourceOfTruth truth, Tally tally)
    {
        int version = truth.Update(k);
        try
        {
            await cache.RemoveAsync(key, CancellationToken.None).ConfigureAwait(false);
            truth.Removed(k, version);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            tally.Error($"RemoveAsync {key}: {ex.GetType().Name}: {ex.Message}");
        }
    }

    /// <summary>One caller: a random key, <c>GetOrCreateAsync</c> (every <see cref="HybridSettings.L2ReadEvery"/>-th time
    /// skipping L1), the value checked, a pause; until the web server stops.</summary>
    private static async Task CallerLoopAsync(Caller caller, CancellationToken stop)
    {
        HybridSettings settings = caller.Settings;
        var entry = new HybridCacheEntryOptions { Expiration = settings.EntryLifetime, LocalCacheExpiration = settings.EntryLifetime };
        var skipL1 = new HybridCacheEntryOptions { Expiration = settings.EntryLifetime, LocalCacheExpiration = settings.EntryLifetime, Flags = SkipL1 };
        double spread = (settings.FactoryMax - settings.FactoryMin).TotalMilliseconds;
        for (long n = 1; !stop.IsCancellationRequested; n++)
        {
            int k = caller.Random.Next(caller.Keys.Length);
            bool l2 = n % settings.L2ReadEvery == 0;
            var factory = new Factory(caller.Truth, k, settings.FactoryMin + TimeSpan.FromMilliseconds(caller.Random.NextDouble() * spread));
            int floor = caller.Truth.Settled(k);
            string value;
            try
            {
                value = await caller.Cache.GetOrCreateAsync(caller.Keys[k], factory, static (f, _) => f.RunAsync(), l2 ? skipL1 : entry, cancellationToken: stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                caller.Tally.Error($"GetOrCreateAsync {caller.Keys[k]}: {ex.GetType().Name}: {ex.Message}");
                continue;
            }

            caller.Tally.Read(l2, !factory.Ran, Check(caller, k, floor, value));
            try
            {
                await Task.Delay(settings.CallGap, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                break;
            }
        }
    }

    /// <summary>A value is <c>k{key}|v{version}</c>: of this key, of a version the row has had, and stale when older
    /// than <paramref name="floor"/>, the version whose removal had completed when the read began.</summary>
    /// <returns>Null (good), <see cref="Tally.Stale"/>, or what is wrong.</returns>
    private static string? Check(Caller caller, int k, int floor, string? value)
    {
        string[] parts = value?.Split('|') ?? [];
        if (parts.Length != 2 || parts[0] != string.Create(CultureInfo.InvariantCulture, $"k{k}") || !parts[1].StartsWith('v')
            || !int.TryParse(parts[1].AsSpan(1), NumberStyles.None, CultureInfo.InvariantCulture, out int version))
        {
            return $"{caller.Keys[k]}: read '{value}', not a value of this key";
        }

        int now = caller.Truth.Version(k);
        return version > now ? $"{caller.Keys[k]}: read version {version} while the row is at {now}" : version < floor ? Tally.Stale : null;
    }

    /// <summary>What one caller reads with and counts into.</summary>
    private sealed record Caller(HybridCache Cache, string[] Keys, SourceOfTruth Truth, HybridSettings Settings, Tally Tally, Random Random);

    /// <summary>One read's factory: reads the row's version (the query's snapshot), then takes the query's time; says
    /// whether it ran, so that a read that ran none is a hit.</summary>
    private sealed class Factory(SourceOfTruth truth, int key, TimeSpan time)
    {
        private int _ran;

        public bool Ran => Volatile.Read(ref _ran) != 0;

        public async ValueTask<string> RunAsync()
        {
            Volatile.Write(ref _ran, 1);
            int version = truth.Query(key);
            await Task.Delay(time, CancellationToken.None).ConfigureAwait(false);
            return string.Create(CultureInfo.InvariantCulture, $"k{key}|v{version}");
        }
    }

    /// <summary>The counts every caller adds to.</summary>
    private sealed class Tally
    {
        /// <summary>What <see cref="Check"/> returns for a stale value.</summary>
        public const string Stale = "stale";

        private readonly MessageSamples _samples = new();
        private long _reads;
        private long _stale;
        private long _l2Reads;
        private long _staleL2;
        private long _hits;
        private long _errors;
        private long _corruptions;

        public long Reads => Interlocked.Read(ref _reads);

        public long StaleReads => Interlocked.Read(ref _stale);

        public long L2Reads => Interlocked.Read(ref _l2Reads);

        public long StaleL2Reads => Interlocked.Read(ref _staleL2);

        public long Hits => Interlocked.Read(ref _hits);

        public long Errors => Interlocked.Read(ref _errors);

        public long Corruptions => Interlocked.Read(ref _corruptions);

        /// <summary>Counts a read: of L2 only or not, a hit or not, and good (null), stale, or corrupt (the message).</summary>
        public void Read(bool l2, bool hit, string? problem)
        {
            Interlocked.Increment(ref l2 ? ref _l2Reads : ref _reads);
            if (hit)
            {
                Interlocked.Increment(ref _hits);
            }

            if (problem == Stale)
            {
                Interlocked.Increment(ref l2 ? ref _staleL2 : ref _stale);
            }
            else if (problem is not null)
            {
                Interlocked.Increment(ref _corruptions);
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
