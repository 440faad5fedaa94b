using System.Diagnostics;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.LoadTest.Running;

/// <summary>One contender's pass: a fresh client, a flushed cache, N virtual users for the time or count, and every figure.</summary>
internal static class ContenderPass
{
    /// <summary>The client's operation timeout: generous, because a 2-core machine running BinaryFormatter on 1 MB trees queues work.</summary>
    public static readonly TimeSpan OperationTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Runs the pass.</summary>
    /// <param name="contender">The contender.</param>
    /// <param name="passIndex">The pass's number in the run (its keys get their own prefix).</param>
    /// <param name="servers">The memcached servers; the fault mode kills and restarts the last one.</param>
    /// <param name="settings">The run's settings.</param>
    /// <param name="mix">The values.</param>
    /// <param name="progress">The pass's counters and clock, watched by the progress display.</param>
    /// <param name="cancellationToken">Ctrl+C: the users stop, and the pass reports what it did as not completed.</param>
    /// <returns>The figures.</returns>
    public static async Task<PassResult> RunAsync(
        Contender contender, int passIndex, ServerSet servers, LoadTestSettings settings, ValueMix mix, PassProgress progress, CancellationToken cancellationToken)
    {
        PassCounters counters = progress.Counters;
        var transcoder = new MeasuringTranscoder(contender.Transcoder, counters.ItemSizes);

        // The client keeps its default OnUnreadableItem = Miss, as an application does; the pass counts what it reads
        // as a miss through its own transcoder.
        var checking = new CheckingTranscoder(transcoder);
        var options = new MemcachedClientOptions
        {
            OperationTimeout = OperationTimeout,
            MaxValueSize = settings.MaxItemBytes,
            Transcoder = checking,
            AutoEject = settings.AutoEject,
        };
        foreach (string endpoint in servers.Endpoints)
        {
            options.Servers.Add(endpoint);
        }

        if (servers.CaPath is { } caPath)
        {
            options.Tls.Enabled = true;
            options.Tls.CaCertificatePath = caPath;
        }

        string? failure = null;
        foreach (ValueShape shape in mix.Shapes)
        {
            try
            {
                if (!shape.WarmUp(contender.Transcoder))
                {
                    failure ??= $"{shape.Name} does not read back equal through {contender.Name}";
                }
            }
            catch (CacheSerializerException ex)
            {
                failure ??= $"{contender.Name} cannot store {shape.Name}: {ex.Message}";
            }
        }

        await using var client = new MemcachedClient(options);
        await client.FlushAllAsync(cancellationToken).ConfigureAwait(false);

        // The previous pass's items are reclaimed in the background; its bytes would be counted in this pass's.
        await ServerStats.UntilEmptyAsync(client, TimeSpan.FromSeconds(10), cancellationToken).ConfigureAwait(false);

        // Evictions are counted from before the warm-up: an item it stored and memcached evicted explains a later miss.
        ServerStats beforeWarmUp = await ServerStats.ReadAsync(client, cancellationToken).ConfigureAwait(false);
        var keys = new KeyState[mix.Keys];
        for (int i = 0; i < keys.Length; i++)
        {
            keys[i] = new KeyState();
        }

        string prefix = $"lt{passIndex}:";

        // Every key stored once before the measured phase starts: a short pass then measures a warm cache, not the
        // misses of a flushed one. Traffic, memcached's counters and every latency are taken from here on.
        WarmUpResult warmUp = await WarmUpPhase.RunAsync(client, mix, keys, counters, prefix, settings.Users, cancellationToken).ConfigureAwait(false);
        if (warmUp.Failed > 0)
        {
            failure ??= $"warm-up: {warmUp.Failed:N0} of {keys.Length:N0} keys could not be stored ({warmUp.FirstFailure})";
        }

        using var traffic = new ClientTrafficMeter();
        ServerStats before = await ServerStats.ReadAsync(client, cancellationToken).ConfigureAwait(false);
        bool tooManyErrors = false;
        bool ShouldStop()
        {
            // A contender that fails most operations (e.g. cannot store a type) stops early instead of spinning.
            if (counters.Errors > 1000 && counters.Errors * 2 > counters.Operations)
            {
                tooManyErrors = true;
            }

            return tooManyErrors || progress.Done;
        }

        using var self = Process.GetCurrentProcess();
        TimeSpan cpuBefore = self.TotalProcessorTime;
        transcoder.ResetCpu();
        FaultInjector? fault = settings.KillNodeAt is null ? null : new FaultInjector(servers, settings, progress);
        using var usersDone = new CancellationTokenSource();
        progress.Start();
        counters.StartTimeline();
        Task faultTask = fault?.RunAsync(usersDone.Token) ?? Task.CompletedTask;
        var users = new Task[settings.Users];
        for (int u = 0; u < users.Length; u++)
        {
            var user = new VirtualUser(client, mix, keys, counters, prefix, settings.ReadRatio, ValueMix.Mix64(settings.Seed, 0x5553_0000UL + (ulong)u));
            users[u] = Task.Run(() => user.RunAsync(ShouldStop, cancellationToken), CancellationToken.None);
        }

        try
        {
            await Task.WhenAll(users).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            failure ??= "cancelled";
        }
        catch (Exception ex)
        {
            failure ??= $"a virtual user failed: {ex}";
        }

        progress.Stop();
        await usersDone.CancelAsync().ConfigureAwait(false);
        await faultTask.ConfigureAwait(false);
        self.Refresh();
        TimeSpan cpu = self.TotalProcessorTime - cpuBefore;
        long transcoderNanoseconds = transcoder.SerializeNanoseconds + transcoder.DeserializeNanoseconds;
        double seconds = progress.Elapsed.TotalSeconds;
        long sent = traffic.Sent;
        long received = traffic.Received;

        ServerStats end;
        using (var statsTimeout = new CancellationTokenSource(TimeSpan.FromSeconds(10)))
        {
            end = await ServerStats.ReadAsync(client, statsTimeout.Token).ConfigureAwait(false);
        }

        ServerStats server = end.Since(before);

        // A miss on a stored key is a lost write only when no server evicted, went down or restarted (the fault mode
        // kills one: its items are gone).
        ServerStats sinceWarmUp = end.Since(beforeWarmUp);
        long? lostWrites = ReadFindings.LostWrites(
            counters.Findings.MissesOnStoredKeys,
            fault is null && sinceWarmUp.Unavailable.Count == 0 && sinceWarmUp.Restarted.Count == 0 ? sinceWarmUp.Evictions : null);

        // The next pass starts with every server up; the stats above were taken first, so they show the down server as unavailable.
        fault?.RestoreAfterPass();
        if (tooManyErrors)
        {
            failure ??= "stopped early: more than half of the operations failed";
        }

        long operations = counters.Operations;
        failure ??= counters.Errors > 0 ? $"{counters.Errors:N0} operations failed"
            : counters.Corruptions > 0 ? $"{counters.Corruptions:N0} corruptions"
            : lostWrites > 0 ? $"{lostWrites:N0} lost writes"
            : operations == 0 ? "no operation was done"
            : fault is null && counters.StoreFailures > 0 ? $"{counters.StoreFailures:N0} sets failed: a server failed"
            : null;
        IReadOnlyList<TimelineSecond> timeline = counters.Timeline(seconds);

        return new PassResult
        {
            Contender = contender.Name,
            Completed = failure is null,
            Failure = failure,
            Seconds = Math.Round(seconds, 3),
            Operations = operations,
            Gets = counters.Gets,
            Sets = counters.Sets,
            Hits = counters.Hits,
            Misses = counters.Misses,
            Errors = counters.Errors,
            StoreFailures = counters.StoreFailures,
            Corruptions = counters.Corruptions,
            Unreadable = checking.UnreadableByReason(),
            LostWrites = lostWrites,
            OperationsPerSecond = seconds > 0 ? Math.Round(operations / seconds, 1) : 0,
            RequestsPerMinute = seconds > 0 ? Math.Round(operations / seconds * 60) : 0,
            LatencyMicroseconds = Distribution.Of(counters.Latency),
            GetLatencyMicroseconds = Distribution.Of(counters.GetLatency),
            SetLatencyMicroseconds = Distribution.Of(counters.SetLatency),
            ClientCpuSeconds = Math.Round(cpu.TotalSeconds, 3),
            ClientCpuMicrosecondsPerOperation = operations > 0 ? Math.Round(cpu.TotalMicroseconds / operations, 1) : 0,
            TranscoderCpuMicrosecondsPerOperation = ThreadCpuClock.IsSupported && operations > 0
                ? Math.Round(transcoderNanoseconds / 1000.0 / operations, 1)
                : null,
            ClientBytesSent = sent,
            ClientBytesReceived = received,
            ClientBytesPerOperation = operations > 0 ? Math.Round((double)(sent + received) / operations, 1) : 0,
            Server = server,
            ServerBytesPerItem = server.CurrentItems > 0 ? Math.Round((double)server.Bytes / server.CurrentItems, 1) : 0,
            ItemSizeBytes = Distribution.Of(counters.ItemSizes),
            WarmUp = warmUp,
            Timeline = timeline,
            Fault = fault?.KilledAt is double killedAt
                ? FaultSummary.Of(servers.Endpoints[fault.Index], fault.Events, killedAt, fault.RestartedAt, timeline)
                : null,
            ErrorSamples = [.. counters.ErrorSamples],
            CorruptionSamples = [.. counters.CorruptionSamples],
            LostWriteSamples = lostWrites > 0 ? [.. counters.Findings.LostWriteSamples] : [],
        };
    }
}
