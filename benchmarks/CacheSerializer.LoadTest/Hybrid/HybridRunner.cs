using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Hybrid.Models;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;
using StackExchange.Redis;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The hybrid scenario (issue 39, item 7): the same farm workload through each HybridCache contender in turn,
/// on a memcached and a redis-server started here (both flushed between contenders), through the phases of
/// <see cref="HybridSettings.Phases"/> (steady removals, removals by tag, an outage of the L2 server, a rolling deploy of
/// another contract), each counted on its own: every read is checked against the removals completed before it began,
/// factory calls are counted per (key, version, build), and the servers' own byte counters are read at each boundary.</summary>
internal static partial class HybridRunner
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
            string phases = string.Join(", ", settings.Phases.Select(p => string.Create(CultureInfo.InvariantCulture, $"{HybridSettings.NameOf(p)} {settings.DurationOf(p).TotalSeconds:0.#} s")));
            return await ScenarioRunner.RunAsync(
                () => ServerSet.Start(settings.Nodes, "-m 256"),
                _ => [$"redis-server: {redis.Endpoint}; {settings.Clients} web servers x {settings.CallersPerClient} callers on {settings.Keys} keys; per contender: {phases}"],
                settings.Contenders,
                (contender, servers) => RunContenderAsync(contender, servers, redis, settings, cancellationToken),
                Summary,
                results => new HybridReport { Settings = settings, Redis = redis.Endpoint, Contenders = results },
                log.WriteLine,
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

    /// <summary>Returns whether a contender's L2 is memcached (the package's contenders, Microsoft's over it), not Redis.</summary>
    /// <param name="contender">The contender.</param>
    /// <returns>True for memcached.</returns>
    public static bool OnMemcached(HybridContender contender) => contender is HybridContender.Bounded or HybridContender.Strict or HybridContender.MicrosoftMemcached;

    private static string Summary(HybridContenderResult result) =>
        $"{result.Contender}: " + string.Join("; ", result.Phases.Select(p => string.Create(
            CultureInfo.InvariantCulture,
            $"{p.Phase} {p.Reads + p.L2Reads:N0} reads ({p.ReadsPerSecond:N0}/s, {p.HitRate:P1} hits, {p.L1HitShare:P1} L1), stale {p.StaleReads:N0} ({p.StaleShare:P2}), at L2 {p.StaleL2Reads:N0}, {p.CallsPerVersion:0.00} calls per version, {p.NetworkBytesPerRead:N0} B/read, {p.LockTimeouts} lock timeouts, slowest read {p.SlowestReadMilliseconds:N0} ms, {p.Errors} errors, {p.Corruptions} corruptions")));

    private static async Task<HybridContenderResult> RunContenderAsync(HybridContender contender, ServerSet servers, RedisServer redis, HybridSettings settings, CancellationToken cancellationToken)
    {
        await FlushAsync([.. servers.Endpoints], redis.Endpoint, cancellationToken).ConfigureAwait(false);
        var results = new List<HybridPhaseResult>();
        HybridPhase[] phases = [.. settings.Phases.Where(p => p != HybridPhase.Faults)];
        if (phases.Length > 0)
        {
            results.AddRange(await RunPhasesAsync(contender, phases, servers, redis, settings, cancellationToken).ConfigureAwait(false));
        }

        if (settings.Phases.Contains(HybridPhase.Faults))
        {
            results.AddRange(await RunFaultsAsync(contender, settings, cancellationToken).ConfigureAwait(false));
        }

        return new HybridContenderResult { Contender = HybridSettings.NameOf(contender), Description = Describe(contender), Phases = results };
    }

    /// <summary>Runs the phases other than faults, on the run's memcached and redis-server (flushed first).</summary>
    private static async Task<List<HybridPhaseResult>> RunPhasesAsync(HybridContender contender, HybridPhase[] phases, ServerSet servers, RedisServer redis, HybridSettings settings, CancellationToken cancellationToken)
    {
        string[] memcached = [.. servers.Endpoints];
        var run = new ContenderRun(contender, settings);
        var results = new List<HybridPhaseResult>();
        await using NetworkMeter meter = await NetworkMeter.OpenAsync(memcached, redis.Endpoint).ConfigureAwait(false);
        using var lockTimeouts = new LockTimeoutMeter();
        try
        {
            for (int i = 0; i < run.Slots.Length; i++)
            {
                run.Slots[i] = run.StartSlot(i, HybridWebServer.Start(contender, memcached, redis.Endpoint, settings, HybridBuild.First));
            }

            using var self = Process.GetCurrentProcess();
            foreach (HybridPhase phase in phases)
            {
                var tally = new HybridPhaseTally(phase);
                long bytesBefore = await meter.ReadAsync(cancellationToken).ConfigureAwait(false);
                long lockTimeoutsBefore = lockTimeouts.Count;
                self.Refresh();
                TimeSpan cpuBefore = self.TotalProcessorTime;
                var clock = Stopwatch.StartNew();
                run.Enter(tally);
                var outage = new Outage(contender, servers, redis);
                long removals = phase switch
                {
                    HybridPhase.Tags => await RemoveTagsOnScheduleAsync(run, tally, clock, cancellationToken).ConfigureAwait(false),
                    HybridPhase.Outage => await WithAsync(UpdateOnScheduleAsync(run, tally, clock, cancellationToken), outage.RunAsync(tally, clock, settings, cancellationToken)).ConfigureAwait(false),
                    HybridPhase.Deploy => await WithAsync(UpdateOnScheduleAsync(run, tally, clock, cancellationToken), DeployAsync(run, memcached, redis.Endpoint, clock, cancellationToken)).ConfigureAwait(false),
                    _ => await UpdateOnScheduleAsync(run, tally, clock, cancellationToken).ConfigureAwait(false),
                };
                double seconds = clock.Elapsed.TotalSeconds;
                self.Refresh();
                TimeSpan cpu = self.TotalProcessorTime - cpuBefore;
                long bytes = await meter.ReadAsync(cancellationToken).ConfigureAwait(false) - bytesBefore;
                results.Add(Result(tally, seconds, cpu, bytes, removals, outage.FrozenFor) with { LockTimeouts = lockTimeouts.Count - lockTimeoutsBefore });
            }

            return results;
        }
        finally
        {
            await run.StopAsync().ConfigureAwait(false);
        }
    }

    private static HybridPhaseResult Result(HybridPhaseTally tally, double seconds, TimeSpan cpu, long bytes, long removals, TimeSpan? frozenFor)
    {
        int[] calls = tally.CallsPerVersion();
        long reads = tally.Reads + tally.L2Reads;
        return new HybridPhaseResult
        {
            Phase = tally.Name,
            Seconds = seconds,
            Reads = tally.Reads,
            StaleReads = tally.StaleReads,
            L2Reads = tally.L2Reads,
            StaleL2Reads = tally.StaleL2Reads,
            Hits = tally.Hits,
            L1Hits = tally.L1Hits,
            FactoryCalls = calls.Sum(c => (long)c),
            VersionsCreated = calls.Length,
            MaxCallsPerVersion = calls.Length == 0 ? 0 : calls.Max(),
            Removals = removals,
            ReadsPerSecond = reads / seconds,
            CpuMicrosecondsPerRead = reads == 0 ? 0 : cpu.TotalMicroseconds / reads,
            NetworkBytes = bytes,
            Errors = tally.Errors,
            Corruptions = tally.Corruptions,
            OutageSeconds = frozenFor?.TotalSeconds,
            L2HitsBackAfterMilliseconds = tally.L2HitsBackAfter?.TotalMilliseconds,
            SlowestReadMilliseconds = tally.SlowestRead.TotalMilliseconds,
            Samples = tally.Samples(),
            RemovalP50Milliseconds = tally.RemovalMilliseconds(50),
            RemovalP99Milliseconds = tally.RemovalMilliseconds(99),
            HitRateAfterRecovery = tally.ReadsAfterResume == 0 ? null : (double)tally.HitsAfterResume / tally.ReadsAfterResume,
            ReadsAfterRecovery = tally.ReadsAfterResume,
            StaleAfterRecovery = tally.ReadsAfterResume == 0 ? null : tally.StaleAfterResume,
            AbandonedRemovals = tally.AbandonedRemovals,
            OutagesEntered = tally.OutagesEntered,
            ChangesFailed = tally.ChangesFailed,
        };
    }

    /// <summary>Runs a phase's removals beside what else it does, and returns the removals made.</summary>
    private static async Task<long> WithAsync(Task<long> removals, Task other)
    {
        await Task.WhenAll(removals, other).ConfigureAwait(false);
        return await removals.ConfigureAwait(false);
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

    /// <summary>Every <see cref="HybridSettings.UpdateEvery"/> until the phase's end, updates a random row of the steady
    /// keys and removes its key on a random web server. The removals run side by side, not one after the other: a removal
    /// may take longer than the interval (the package's Bounded mode returns only after its bound, a frozen server holds
    /// it).</summary>
    /// <returns>The updates made.</returns>
    private static Task<long> UpdateOnScheduleAsync(ContenderRun run, HybridPhaseTally tally, Stopwatch clock, CancellationToken cancellationToken)
    {
        HybridSettings settings = run.Settings;
        return OnScheduleAsync(settings.UpdateEvery, settings.DurationOf(tally.Phase), clock, HashCode.Combine(settings.Seed, "updates", tally.Phase), random =>
        {
            int k = random.Next(settings.Keys);
            return UpdateAsync(run.Server(random.Next(run.Slots.Length)), run.Keys[k], k, run.Truth, tally);
        }, cancellationToken);
    }

    /// <summary>Every <see cref="HybridSettings.TagEvery"/> until the phase's end, updates the rows of a random tag and
    /// removes the tag on a random web server (side by side, as the updates).</summary>
    /// <returns>The removals by tag made.</returns>
    private static Task<long> RemoveTagsOnScheduleAsync(ContenderRun run, HybridPhaseTally tally, Stopwatch clock, CancellationToken cancellationToken)
    {
        HybridSettings settings = run.Settings;
        return OnScheduleAsync(settings.TagEvery, settings.TagsDuration, clock, HashCode.Combine(settings.Seed, "tags"), random =>
        {
            int tag = random.Next(settings.Tags);
            return RemoveTagAsync(run.Server(random.Next(run.Slots.Length)), tag, run.Truth, tally);
        }, cancellationToken);
    }

    /// <summary>Starts <paramref name="action"/> every <paramref name="every"/> before <paramref name="duration"/> on
    /// <paramref name="clock"/>, waits until then and for every action started.</summary>
    /// <returns>The actions started.</returns>
    private static async Task<long> OnScheduleAsync(TimeSpan every, TimeSpan duration, Stopwatch clock, int seed, Func<Random, Task> action, CancellationToken cancellationToken)
    {
        var random = new Random(seed);
        var started = new List<Task>();
        for (int round = 1; round * every < duration; round++)
        {
            await ScenarioRunner.WaitUntilAsync(clock, round * every, cancellationToken).ConfigureAwait(false);
            started.Add(action(random));
        }

        await ScenarioRunner.WaitUntilAsync(clock, duration, cancellationToken).ConfigureAwait(false);
        await Task.WhenAll(started).ConfigureAwait(false);
        return started.Count;
    }

    /// <summary>One update: the row's next version, then <c>RemoveAsync</c>; once it returns, older versions are stale.
    /// A removal that throws because its web server was disposed meanwhile (the faults phase restarts one) is lost with
    /// it, not an error.</summary>
    private static async Task UpdateAsync(HybridWebServer server, string key, int k, SourceOfTruth truth, HybridPhaseTally tally)
    {
        int version = truth.Update(k);
        long started = Stopwatch.GetTimestamp();
        try
        {
            await server.Cache.RemoveAsync(key, CancellationToken.None).ConfigureAwait(false);
            tally.Removal(Stopwatch.GetTimestamp() - started);
            truth.Removed(k, version);
        }
        catch (Exception ex) when (server.IsDisposed)
        {
            tally.Abandoned($"RemoveAsync {key}: {ex.GetType().Name}");
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            tally.Error($"RemoveAsync {key}: {ex.GetType().Name}: {ex.Message}");
        }
    }

    /// <summary>One removal by tag: every row of the tag its next version, then <c>RemoveByTagAsync</c>; once it returns,
    /// their older versions are stale.</summary>
    private static async Task RemoveTagAsync(HybridWebServer server, int tag, SourceOfTruth truth, HybridPhaseTally tally)
    {
        IReadOnlyList<(int Key, int Version)> updated = truth.UpdateTag(tag);
        long started = Stopwatch.GetTimestamp();
        try
        {
            await server.Cache.RemoveByTagAsync(TagName(tag), CancellationToken.None).ConfigureAwait(false);
            tally.Removal(Stopwatch.GetTimestamp() - started);
            truth.TagRemoved(updated);
        }
        catch (Exception ex) when (server.IsDisposed)
        {
            tally.Abandoned($"RemoveByTagAsync {TagName(tag)}: {ex.GetType().Name}");
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            tally.Error($"RemoveByTagAsync {TagName(tag)}: {ex.GetType().Name}: {ex.Message}");
        }
    }

    private static string TagName(int tag) => string.Create(CultureInfo.InvariantCulture, $"hybrid-tag-{tag}");

    /// <summary>The rolling deploy: at each step (the phase's duration split in one more than the web servers), the next
    /// web server stops its callers and a web server of build 2 takes its place, with new callers. A replaced web server
    /// is disposed when the contender ends, so that a removal it was still making completes.</summary>
    private static async Task DeployAsync(ContenderRun run, string[] memcached, string redis, Stopwatch clock, CancellationToken cancellationToken)
    {
        TimeSpan step = run.Settings.DeployDuration / (run.Slots.Length + 1);
        for (int i = 0; i < run.Slots.Length; i++)
        {
            await ScenarioRunner.WaitUntilAsync(clock, (i + 1) * step, cancellationToken).ConfigureAwait(false);
            if (run.Server(i).Build == HybridBuild.Second)
            {
                continue;
            }

            await run.ReplaceAsync(i, HybridWebServer.Start(run.Contender, memcached, redis, run.Settings, HybridBuild.Second)).ConfigureAwait(false);
        }
    }

    /// <summary>One caller: a random key (in the tags phase one of the tagged keys, created with its tag),
    /// <c>GetOrCreateAsync</c> of its web server's build (every <see cref="HybridSettings.L2ReadEvery"/>-th time skipping
    /// L1), the value checked and counted in the phase the read began in, a pause; until the web server stops.</summary>
    private static async Task CallerLoopAsync(ContenderRun run, HybridWebServer server, Random random, CancellationToken stop)
    {
        HybridSettings settings = run.Settings;
        var entry = new HybridCacheEntryOptions { Expiration = settings.EntryLifetime, LocalCacheExpiration = settings.EntryLifetime };
        var skipL1 = new HybridCacheEntryOptions { Expiration = settings.EntryLifetime, LocalCacheExpiration = settings.EntryLifetime, Flags = SkipL1 };
        double spread = (settings.FactoryMax - settings.FactoryMin).TotalMilliseconds;
        for (long n = 1; !stop.IsCancellationRequested; n++)
        {
            HybridPhaseTally tally = run.Current;
            bool tagged = tally.Tagged;
            int k = random.Next(settings.Keys) + (tagged ? settings.Keys : 0);
            bool l2 = n % settings.L2ReadEvery == 0;
            var factory = new HybridFactory(run.Truth, k, settings.FactoryMin + TimeSpan.FromMilliseconds(random.NextDouble() * spread), tally, server.Build.Number);
            int floor = run.Truth.Settled(k);
            long started = Stopwatch.GetTimestamp();
            try
            {
                IHybridRow value = await server.Build.GetOrCreateAsync(server.Cache, run.Keys[k], factory, l2 ? skipL1 : entry, tagged ? [TagName(run.Truth.TagOf(k))] : null, stop).ConfigureAwait(false);
                tally.Read(l2, SourceOf(factory, value), Check(run, k, floor, value), started, run.Keys[k], k);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception) when (stop.IsCancellationRequested && server.IsDisposed)
            {
                // A read in flight as its web server was restarted (the faults phase), which a process that ends loses too.
                break;
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                tally.Error($"GetOrCreateAsync {run.Keys[k]}: {ex.GetType().Name}: {ex.Message}");
            }

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

    /// <summary>Where a read's value came from (see <see cref="IHybridRow"/>); marks the instance as handed out.</summary>
    private static HybridReadSource SourceOf(HybridFactory factory, IHybridRow? value)
    {
        bool servedBefore = value?.Marks.TakeServed() ?? false;
        return factory.Ran ? HybridReadSource.Factory
            : servedBefore ? HybridReadSource.L1
            : value?.Marks.MadeByFactory == true ? HybridReadSource.SharedCall
            : HybridReadSource.L2;
    }

    /// <summary>A value is of key <paramref name="k"/>, of a version the row has had, and stale when older than
    /// <paramref name="floor"/>, the version whose removal had completed when the read began.</summary>
    /// <returns>Null (good), <see cref="HybridPhaseTally.Stale"/>, or what is wrong.</returns>
    private static string? Check(ContenderRun run, int k, int floor, IHybridRow? value)
    {
        if (value is null || value.Key != k)
        {
            return $"{run.Keys[k]}: read {(value is null ? "null" : $"a value of key {value.Key}")}, not a value of this key";
        }

        int now = run.Truth.Version(k);
        return value.Version > now ? $"{run.Keys[k]}: read version {value.Version} while the row is at {now}" : value.Version < floor ? HybridPhaseTally.Stale : null;
    }

    /// <summary>One contender's run: its keys (the steady keys, then the tagged keys), the source of truth, the web
    /// servers with their callers, and the phase being counted.</summary>
    private sealed class ContenderRun
    {
        private readonly List<HybridWebServer> _replaced = [];
        private HybridPhaseTally _current;

        public ContenderRun(HybridContender contender, HybridSettings settings)
        {
            Contender = contender;
            Settings = settings;
            string name = HybridSettings.NameOf(contender);
            Keys = [.. Enumerable.Range(0, 2 * settings.Keys).Select(k => k < settings.Keys ? $"hybrid:{name}:{k}" : $"hybrid:{name}:tagged:{k - settings.Keys}")];
            Truth = new SourceOfTruth(2 * settings.Keys, settings.Keys, settings.Tags);
            Slots = new Slot?[settings.Clients];
            _current = new HybridPhaseTally(settings.Phases[0]);
        }

        public HybridContender Contender { get; }

        public HybridSettings Settings { get; }

        public string[] Keys { get; }

        public SourceOfTruth Truth { get; }

        public Slot?[] Slots { get; }

        public HybridPhaseTally Current => Volatile.Read(ref _current);

        public void Enter(HybridPhaseTally tally) => Volatile.Write(ref _current, tally);

        public HybridWebServer Server(int index) => Volatile.Read(ref Slots[index])!.Server;

        public Slot StartSlot(int index, HybridWebServer server) =>
            new(server, new CallerLoops(Settings.CallersPerClient, HashCode.Combine(Settings.Seed, index, server.Build.Number), (random, stop) => CallerLoopAsync(this, server, random, stop)));

        public async Task ReplaceAsync(int index, HybridWebServer server)
        {
            Slot old = Volatile.Read(ref Slots[index])!;
            await old.Callers.StopAsync().ConfigureAwait(false);
            _replaced.Add(old.Server);
            Volatile.Write(ref Slots[index], StartSlot(index, server));
        }

        /// <summary>Restarts web server <paramref name="index"/>: its callers are told to stop and its service provider
        /// is disposed at once, without waiting for the reads in flight (what it held in memory, reads and removals it
        /// was making, is lost, as with a process that ends; a read on a frozen server would hold the restart until its
        /// timeout), and a new one is built.</summary>
        public async Task RestartAsync(int index, Func<HybridWebServer> start)
        {
            Slot old = Volatile.Read(ref Slots[index])!;
            Task stopping = old.Callers.StopAsync();
            await old.Server.DisposeAsync().ConfigureAwait(false);
            Volatile.Write(ref Slots[index], StartSlot(index, start()));
            await stopping.ConfigureAwait(false);
        }

        public async Task StopAsync()
        {
            foreach (Slot? slot in Slots)
            {
                if (slot is not null)
                {
                    await slot.Callers.StopAsync().ConfigureAwait(false);
                    _replaced.Add(slot.Server);
                }
            }

            foreach (HybridWebServer server in _replaced)
            {
                await server.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    /// <summary>A web server and its callers.</summary>
    private sealed record Slot(HybridWebServer Server, CallerLoops Callers);

    /// <summary>The outage phase's freeze of the contender's L2 server (every memcached, or redis-server): a quarter of the
    /// way into the phase, for <see cref="HybridSettings.OutageFor"/>; the return is noted in the phase's tally.</summary>
    private sealed class Outage(HybridContender contender, ServerSet servers, RedisServer redis)
    {
        public TimeSpan? FrozenFor { get; private set; }

        public async Task RunAsync(HybridPhaseTally tally, Stopwatch clock, HybridSettings settings, CancellationToken cancellationToken)
        {
            await ScenarioRunner.WaitUntilAsync(clock, settings.OutageDuration / 4, cancellationToken).ConfigureAwait(false);
            TimeSpan frozenAt = clock.Elapsed;
            await Task.Run(Freeze, CancellationToken.None).ConfigureAwait(false);
            try
            {
                await Task.Delay(settings.OutageFor, cancellationToken).ConfigureAwait(false);
            }
            finally
            {
                await Task.Run(Thaw, CancellationToken.None).ConfigureAwait(false);
                tally.Resumed(Stopwatch.GetTimestamp());
                FrozenFor = clock.Elapsed - frozenAt;
            }
        }

        private void Freeze() => Set(frozen: true);

        private void Thaw() => Set(frozen: false);

        private void Set(bool frozen)
        {
            if (!OnMemcached(contender))
            {
                Action signal = frozen ? redis.Pause : redis.Resume;
                signal();
                return;
            }

            for (int i = 0; i < servers.Endpoints.Count; i++)
            {
                Action<int> signal = frozen ? servers.Pause : servers.Resume;
                signal(i);
            }
        }
    }
}
