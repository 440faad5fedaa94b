using System.Runtime.InteropServices;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.LoadTest.Running;

/// <summary>The whole run: servers up, one pass per contender in turn, servers down (also on Ctrl+C or failure).</summary>
internal static class LoadTestRunner
{
    /// <summary>
    /// Returns the contenders a run uses: the named ones, or by default this package's transcoder with its defaults
    /// (Zstandard since issue 24), without compression and with LZ4, then BSON, BinaryFormatter and BinaryFormatter +
    /// Deflate; for the seed profile, this transcoder with its defaults, without compression, with LZ4 and with Brotli,
    /// then BinaryFormatter + Deflate (the report's original). This package's configurations are built for items of up
    /// to <paramref name="maxItemBytes"/>.
    /// </summary>
    /// <param name="names">Names from <see cref="ContenderCatalog"/>, or empty for the default.</param>
    /// <param name="profile">The run's profile, which picks the default contenders.</param>
    /// <param name="maxItemBytes">The run's item limit (<see cref="LoadTestSettings.MaxItemBytes"/>).</param>
    /// <returns>The contenders, in the order given.</returns>
    /// <exception cref="ArgumentException">A name is not in the catalog.</exception>
    public static IReadOnlyList<Contender> SelectContenders(IReadOnlyList<string> names, LoadProfile profile = LoadProfile.Default, int maxItemBytes = 2 * 1024 * 1024)
    {
        if (names.Count > 0)
        {
            return names.Select(name =>
                ContenderCatalog.All.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.OrdinalIgnoreCase)) is { } found
                    ? ContenderCatalog.Get(found.Name, maxItemBytes)
                    : throw new ArgumentException($"--contenders: no contender is named '{name}'; known: {string.Join(", ", ContenderCatalog.All.Select(c => c.Name))}."))
                .ToArray();
        }

        string[] defaults = profile == LoadProfile.Seed
            ? [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerUncompressed, ContenderCatalog.CacheSerializerLz4, ContenderCatalog.CacheSerializerCompressed, ContenderCatalog.DeflateBinaryFormatter]
            : [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerUncompressed, ContenderCatalog.CacheSerializerLz4, ContenderCatalog.Bson, ContenderCatalog.BinaryFormatter, ContenderCatalog.DeflateBinaryFormatter];
        return [.. defaults.Select(name => ContenderCatalog.Get(name, maxItemBytes))];
    }

    /// <summary>Runs every pass.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="display">Where progress goes.</param>
    /// <param name="cancellationToken">Ctrl+C: the current pass stops, the rest are skipped, the servers stop.</param>
    /// <returns>The report.</returns>
    public static async Task<LoadTestReport> RunAsync(LoadTestSettings settings, IProgressDisplay display, CancellationToken cancellationToken)
    {
        settings.Validate();
        IReadOnlyList<Contender> contenders = SelectContenders(settings.Contenders, settings.Profile, settings.MaxItemBytes);
        var start = RunStart.Now();

        var mix = ValueMix.Create(settings.Profile, settings.Keys, settings.Seed);

        using var servers = ServerSet.Open(settings);

        // A terminal closed or a kill (SIGHUP, SIGTERM) ends the process without running finally blocks; stop the
        // started servers on the way out anyway, so no memcached outlives the run.
        void StopServers(object? sender, EventArgs e) => servers.Dispose();
        AppDomain.CurrentDomain.ProcessExit += StopServers;
        using var hup = PosixSignalRegistration.Create(PosixSignal.SIGHUP, _ => servers.Dispose());
        try
        {
            return await RunPassesAsync(settings, display, contenders, mix, servers, start, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            AppDomain.CurrentDomain.ProcessExit -= StopServers;
        }
    }

    private static async Task<LoadTestReport> RunPassesAsync(
        LoadTestSettings settings, IProgressDisplay display, IReadOnlyList<Contender> contenders, ValueMix mix, ServerSet servers, RunStart start, CancellationToken cancellationToken)
    {
        int[] keysPerShape = mix.KeysPerShape();

        string serverLine = $"{string.Join(", ", servers.Endpoints)} ({servers.Description})";
        display.Message($"memcached: {serverLine}");
        display.Message(settings.Operations is long ops
            ? $"{contenders.Count} contenders, {ops:N0} operations each, {settings.Users} users, {settings.Keys:N0} keys, {settings.ReadRatio:P0} gets"
            : $"{contenders.Count} contenders, {settings.Duration.TotalSeconds:0.#} s each, {settings.Users} users, {settings.Keys:N0} keys, {settings.ReadRatio:P0} gets");
        if (settings.KillNodeAt is TimeSpan killAt)
        {
            display.Message($"fault mode: {servers.Endpoints[^1]} is killed {killAt.TotalSeconds:0.#} s into each pass and restarted {settings.RestartNodeAfter.TotalSeconds:0.#} s later; auto-eject {(settings.AutoEject ? "on" : "off")}");
        }

        double? loadAtStart = RunReadability.ReadLoadAverage();
        var passes = new List<PassResult>();
        PassResult? repeat = null;

        // The short mode runs its first contender once more at the end: how far the two passes differ is the noise that
        // every throughput ratio of the run carries (RunReadability).
        int passCount = settings.Short && contenders.Count > 0 ? contenders.Count + 1 : contenders.Count;
        for (int i = 0; i < passCount && !cancellationToken.IsCancellationRequested; i++)
        {
            Contender contender = contenders[i % contenders.Count];
            int passIndex = i;
            var progress = new PassProgress(i < contenders.Count ? contender.Name : $"{contender.Name} (repeat)", new PassCounters(), settings.Duration, settings.Operations);
            ValueMix contenderMix = mix.For(contender.Input);
            Task<PassResult> pass = Task.Run(() => ContenderPass.RunAsync(contender, passIndex, servers, settings, contenderMix, progress, cancellationToken), CancellationToken.None);
            try
            {
                PassResult result = await display.TrackAsync(progress, pass).ConfigureAwait(false);
                if (i < contenders.Count)
                {
                    passes.Add(result);
                }
                else
                {
                    repeat = result;
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Ctrl+C before the users started (during the flush or the first stats): nothing of this pass to report.
                break;
            }
        }

        RunReadability? readability = settings.Short && passes.Count > 0
            ? new RunReadability(
                Environment.ProcessorCount,
                loadAtStart,
                RunReadability.ReadLoadAverage(),
                passes.Min(p => p.Operations),
                repeat is null ? null : repeat.Contender,
                passes[0].OperationsPerSecond,
                repeat?.OperationsPerSecond ?? 0)
            : null;
        if (readability is not null)
        {
            foreach (string warning in readability.Warnings)
            {
                display.Message($"warning: throughput ratios not readable: {warning}.");
            }
        }

        return new LoadTestReport
        {
            Started = start.Started,
            Finished = DateTimeOffset.UtcNow,
            Machine = RunStart.MachineLine(),
            LoadAverage = start.LoadAverageLine(),
            Settings = settings,
            Servers = serverLine,
            Mix = [.. mix.Shapes.Select((s, i) => new ShapeSummary(s.Name, s.Share, keysPerShape[i], s.Description))],
            Passes = passes,
            Repeat = repeat,
            Readability = readability,
        };
    }
}
