using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The faults phase (issue 44, item 8): one contender on servers of its own (<see cref="FaultRig"/>), its
/// callers reading the tagged keys while rows are removed by key (every <see cref="HybridSettings.UpdateEvery"/>) and by
/// tag (every <see cref="HybridSettings.TagEvery"/>), through steps each counted on its own: memory pressure, a freeze
/// then a kill of each server in turn, and a web server restarted in an outage.</summary>
internal static partial class HybridRunner
{
    /// <summary>The kinds of the package's own records the pressure step deletes, each twice, in a random order.</summary>
    private const int RecordKinds = 4;

    private static async Task<List<HybridPhaseResult>> RunFaultsAsync(HybridContender contender, HybridSettings settings, CancellationToken cancellationToken)
    {
        await using FaultRig rig = await FaultRig.StartAsync(contender, settings).ConfigureAwait(false);
        void StopServers(object? sender, EventArgs e) => rig.Kill();
        AppDomain.CurrentDomain.ProcessExit += StopServers;
        var run = new ContenderRun(contender, settings);
        var logs = new HybridEventCounter(() => run.Current);
        HybridWebServer Start() => HybridWebServer.Start(contender, rig.Memcached, rig.Redis, settings, HybridBuild.First, logs);
        var results = new List<HybridPhaseResult>();
        var steps = new FaultSteps(run, rig, cancellationToken);
        using var lockTimeouts = new LockTimeoutMeter();
        try
        {
            for (int i = 0; i < run.Slots.Length; i++)
            {
                run.Slots[i] = run.StartSlot(i, Start());
            }

            // Not counted: the web servers' first reads fill both levels, and the pollers make their first poll.
            run.Enter(new HybridPhaseTally(HybridPhase.Faults, "faults: warm-up", null));
            await Task.Delay(settings.FaultLead, cancellationToken).ConfigureAwait(false);

            bool package = contender is HybridContender.Bounded or HybridContender.Strict;
            results.Add(await steps.RunAsync("memory pressure", null, lockTimeouts, (step, clock) => PressureAsync(rig, settings, package, step, clock, cancellationToken)).ConfigureAwait(false));
            for (int i = 0; i < rig.Nodes.Count; i++)
            {
                int node = i;
                results.Add(await steps.RunAsync($"freeze {rig.Nodes[node]}", node, lockTimeouts, (step, clock) => LiftedAsync(step, clock, settings, settings.FaultFreeze, $"froze {rig.Nodes[node]} (SIGSTOP)", () => rig.Pause(node), $"let {rig.Nodes[node]} run (SIGCONT)", () => rig.Resume(node), cancellationToken)).ConfigureAwait(false));
                results.Add(await steps.RunAsync($"kill {rig.Nodes[node]}", node, lockTimeouts, (step, clock) => LiftedAsync(step, clock, settings, settings.KillFor, $"killed {rig.Nodes[node]} (SIGKILL)", () => rig.Kill(node), $"restarted {rig.Nodes[node]} (empty)", () => rig.Restart(node), cancellationToken)).ConfigureAwait(false));
            }

            results.Add(await steps.RunAsync("web server restarted in an outage", null, lockTimeouts, (step, clock) => WebServerRestartAsync(run, rig, Start, settings, step, clock, cancellationToken)).ConfigureAwait(false));
            return results;
        }
        finally
        {
            await run.StopAsync().ConfigureAwait(false);
            AppDomain.CurrentDomain.ProcessExit -= StopServers;
        }
    }

    /// <summary>The memory pressure step: the filler writes for its first three quarters (its end is the step's
    /// "recovery"); for the package's HybridCache, each kind of record it keeps beside the entries (the log's counter, the
    /// log item the pollers read next, a tag's record, *'s record) is deleted twice, at random moments between a tenth
    /// and seven tenths of the step. The other contenders' own records are left alone: Microsoft's and FusionCache's
    /// tag records are named by their internals, so the step is memory pressure only for them.</summary>
    private static async Task PressureAsync(FaultRig rig, HybridSettings settings, bool package, FaultStep step, Stopwatch clock, CancellationToken cancellationToken)
    {
        TimeSpan fillFor = settings.PressureFor * 3 / 4;
        long evictionsBefore = await rig.EvictionsAsync().ConfigureAwait(false);
        using var stopFiller = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        step.Note(clock, rig.Description);
        Task<long> filler = rig.FillAsync(stopFiller.Token);
        step.Note(clock, "filler started");
        if (package)
        {
            var random = new Random(HashCode.Combine(settings.Seed, "records"));
            int[] kinds = [.. Enumerable.Range(0, 2 * RecordKinds).Select(i => i % RecordKinds).OrderBy(_ => random.Next())];
            TimeSpan[] moments = [.. kinds.Select(_ => settings.PressureFor * (0.1 + (0.6 * random.NextDouble()))).Order()];
            for (int i = 0; i < kinds.Length; i++)
            {
                await ScenarioRunner.WaitUntilAsync(clock, moments[i], cancellationToken).ConfigureAwait(false);
                step.Note(clock, await rig.DeleteRecordAsync(kinds[i], TagName(random.Next(settings.Tags))).ConfigureAwait(false));
            }
        }

        await ScenarioRunner.WaitUntilAsync(clock, fillFor, cancellationToken).ConfigureAwait(false);
        await stopFiller.CancelAsync().ConfigureAwait(false);
        long writes = await filler.ConfigureAwait(false);

        // A busy machine may write too slowly to fill memory in a short step (one short run wrote 186 values in 1.5 s and
        // evicted nothing): until the servers evict, large values are written without pause, for at most the rest of
        // the step's first nine tenths.
        while (await rig.EvictionsAsync().ConfigureAwait(false) == evictionsBefore && clock.Elapsed < settings.PressureFor * 0.9)
        {
            writes += await rig.FillBurstAsync(writes, cancellationToken).ConfigureAwait(false);
        }
        step.Tally.Resumed(Stopwatch.GetTimestamp());
        step.Note(clock, string.Create(CultureInfo.InvariantCulture, $"filler stopped after {writes:N0} writes"));
        await ScenarioRunner.WaitUntilAsync(clock, settings.PressureFor, cancellationToken).ConfigureAwait(false);
        step.Evictions = await rig.EvictionsAsync().ConfigureAwait(false) - evictionsBefore;
    }

    /// <summary>A fault that is lifted: <see cref="HybridSettings.FaultLead"/> in, <paramref name="fault"/> for
    /// <paramref name="lasting"/>, then <paramref name="lift"/> (the step's "recovery"), then
    /// <see cref="HybridSettings.FaultTail"/> more.</summary>
    private static async Task LiftedAsync(FaultStep step, Stopwatch clock, HybridSettings settings, TimeSpan lasting, string faultText, Action fault, string liftText, Action lift, CancellationToken cancellationToken)
    {
        await ScenarioRunner.WaitUntilAsync(clock, settings.FaultLead, cancellationToken).ConfigureAwait(false);
        await Task.Run(fault, CancellationToken.None).ConfigureAwait(false);
        step.Note(clock, faultText);
        try
        {
            await Task.Delay(lasting, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            await Task.Run(lift, CancellationToken.None).ConfigureAwait(false);
            step.Tally.Resumed(Stopwatch.GetTimestamp());
            step.Note(clock, liftText);
        }

        await Task.Delay(settings.FaultTail, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The web server restart step: every server frozen past the operation timeout; meanwhile every removal is
    /// made on web server 0 (so that the removals of the outage are its own), which is restarted (disposed, a new one
    /// built) <see cref="HybridSettings.FreezePast"/> before the servers are let run again.</summary>
    private static async Task WebServerRestartAsync(ContenderRun run, FaultRig rig, Func<HybridWebServer> start, HybridSettings settings, FaultStep step, Stopwatch clock, CancellationToken cancellationToken)
    {
        await ScenarioRunner.WaitUntilAsync(clock, settings.FaultLead, cancellationToken).ConfigureAwait(false);
        await Task.Run(() => Enumerable.Range(0, rig.Nodes.Count).ToList().ForEach(rig.Pause), CancellationToken.None).ConfigureAwait(false);
        step.Note(clock, "froze every server");
        step.RemovalsOn = 0;
        try
        {
            await Task.Delay(settings.FaultFreeze, cancellationToken).ConfigureAwait(false);
            step.RemovalsOn = null;
            await run.RestartAsync(0, start).ConfigureAwait(false);
            step.Note(clock, "restarted web server 0, which made the outage's removals");
            await Task.Delay(settings.FreezePast, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            step.RemovalsOn = null;
            await Task.Run(() => Enumerable.Range(0, rig.Nodes.Count).ToList().ForEach(rig.Resume), CancellationToken.None).ConfigureAwait(false);
            step.Tally.Resumed(Stopwatch.GetTimestamp());
            step.Note(clock, "let every server run");
        }

        await Task.Delay(settings.FaultTail, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Runs the steps of one contender's faults phase, each with its own tally, clock and removals.</summary>
    private sealed class FaultSteps(ContenderRun run, FaultRig rig, CancellationToken cancellationToken)
    {
        /// <summary>Runs one step: the removals on schedule until <paramref name="fault"/> ends, then the step's result.</summary>
        /// <param name="name">The step's name, after "faults: ".</param>
        /// <param name="faulted">The server the step faults, or null.</param>
        /// <param name="lockTimeouts">The process's lock timeout counter.</param>
        /// <param name="fault">What the step does to the servers.</param>
        public async Task<HybridPhaseResult> RunAsync(string name, int? faulted, LockTimeoutMeter lockTimeouts, Func<FaultStep, Stopwatch, Task> fault)
        {
            bool[]? keysOn = faulted is int node ? rig.KeysOn(run.Keys, node) : null;
            var step = new FaultStep(new HybridPhaseTally(HybridPhase.Faults, "faults: " + name, keysOn));
            using var self = Process.GetCurrentProcess();
            TimeSpan cpuBefore = self.TotalProcessorTime;
            long lockTimeoutsBefore = lockTimeouts.Count;
            var clock = Stopwatch.StartNew();
            run.Enter(step.Tally);
            Task faulting = fault(step, clock);
            long removals = await WithAsync(RemoveUntilAsync(step, faulting, clock), faulting).ConfigureAwait(false);
            double seconds = clock.Elapsed.TotalSeconds;
            self.Refresh();
            return Result(step.Tally, seconds, self.TotalProcessorTime - cpuBefore, 0, removals, null) with
            {
                LockTimeouts = lockTimeouts.Count - lockTimeoutsBefore,
                FaultedServer = faulted is int index ? rig.Nodes[index] : null,
                StaleOnFaultedServer = keysOn is null ? null : step.Tally.StaleOnFaultedServer,
                Evictions = step.Evictions,
                Events = step.Events,
            };
        }

        /// <summary>Every <see cref="HybridSettings.UpdateEvery"/> until the fault ends (an hour at most), a random
        /// tagged row updated and its key removed; every <see cref="HybridSettings.TagEvery"/> also a random tag's rows
        /// updated and the tag removed; each on a random web server, or on <see cref="FaultStep.RemovalsOn"/>.</summary>
        /// <returns>The removals made (by key and by tag).</returns>
        private async Task<long> RemoveUntilAsync(FaultStep step, Task faulting, Stopwatch clock)
        {
            HybridSettings settings = run.Settings;
            var random = new Random(HashCode.Combine(settings.Seed, "faults", step.Tally.Name));
            int tagRounds = Math.Max(1, (int)(settings.TagEvery / settings.UpdateEvery));
            var started = new List<Task>();
            for (int round = 1; !faulting.IsCompleted && round * settings.UpdateEvery < TimeSpan.FromHours(1); round++)
            {
                await ScenarioRunner.WaitUntilAsync(clock, round * settings.UpdateEvery, cancellationToken).ConfigureAwait(false);
                int k = settings.Keys + random.Next(settings.Keys);
                started.Add(UpdateAsync(run.Server(step.RemovalsOn ?? random.Next(run.Slots.Length)), run.Keys[k], k, run.Truth, step.Tally));
                if (round % tagRounds == 0)
                {
                    started.Add(RemoveTagAsync(run.Server(step.RemovalsOn ?? random.Next(run.Slots.Length)), random.Next(settings.Tags), run.Truth, step.Tally));
                }
            }

            await Task.WhenAll(started).ConfigureAwait(false);
            return started.Count;
        }
    }

    /// <summary>One step of the faults phase while it runs: its tally, what was done when, and where removals go.</summary>
    private sealed class FaultStep(HybridPhaseTally tally)
    {
        private readonly List<string> _events = [];
        private int _removalsOn = -1;

        public HybridPhaseTally Tally => tally;

        public List<string> Events
        {
            get
            {
                lock (_events)
                {
                    return [.. _events];
                }
            }
        }

        public long? Evictions { get; set; }

        /// <summary>Gets or sets the web server every removal is made on, or null for a random one each.</summary>
        public int? RemovalsOn
        {
            get => Volatile.Read(ref _removalsOn) is int on and >= 0 ? on : null;
            set => Volatile.Write(ref _removalsOn, value ?? -1);
        }

        public void Note(Stopwatch clock, string what)
        {
            lock (_events)
            {
                _events.Add(string.Create(CultureInfo.InvariantCulture, $"{clock.Elapsed.TotalSeconds:0.00} s: {what}"));
            }
        }
    }
}
