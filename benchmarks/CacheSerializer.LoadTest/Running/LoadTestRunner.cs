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

    /// <summary>Runs every pass, through the skeleton of every run (<see cref="ScenarioRunner"/>): its parts are the
    /// contenders' passes, then in the short mode a repeat of the first one.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="display">Where progress goes.</param>
    /// <param name="cancellationToken">Ctrl+C: the current pass stops, the rest are skipped, the servers stop.</param>
    /// <returns>The report.</returns>
    public static Task<LoadTestReport> RunAsync(LoadTestSettings settings, IProgressDisplay display, CancellationToken cancellationToken)
    {
        settings.Validate();
        IReadOnlyList<Contender> contenders = SelectContenders(settings.Contenders, settings.Profile, settings.MaxItemBytes);
        var mix = ValueMix.Create(settings.Profile, settings.Keys, settings.Seed);
        double? loadAtStart = RunReadability.ReadLoadAverage();

        // The short mode runs its first contender once more at the end: how far the two passes differ is the noise that
        // every throughput ratio of the run carries (RunReadability).
        int passCount = settings.Short && contenders.Count > 0 ? contenders.Count + 1 : contenders.Count;
        return ScenarioRunner.RunAsync(
            () => ServerSet.Open(settings),
            servers => Describe(settings, contenders.Count, servers),
            Enumerable.Range(0, passCount),
            (passIndex, servers) => RunPassAsync(passIndex, contenders, settings, mix, servers, display, cancellationToken),
            summary: null,
            results => Report(settings, contenders.Count, mix, loadAtStart, results, display),
            display.Message,
            cancellationToken);
    }

    /// <summary>The lines that say what runs: the contenders and the load, and the fault mode's outage.</summary>
    private static IEnumerable<string> Describe(LoadTestSettings settings, int contenders, ServerSet servers)
    {
        yield return settings.Operations is long ops
            ? $"{contenders} contenders, {ops:N0} operations each, {settings.Users} users, {settings.Keys:N0} keys, {settings.ReadRatio:P0} gets"
            : $"{contenders} contenders, {settings.Duration.TotalSeconds:0.#} s each, {settings.Users} users, {settings.Keys:N0} keys, {settings.ReadRatio:P0} gets";
        if (settings.KillNodeAt is TimeSpan killAt)
        {
            yield return $"fault mode: {servers.Endpoints[^1]} is killed {killAt.TotalSeconds:0.#} s into each pass and restarted {settings.RestartNodeAfter.TotalSeconds:0.#} s later; auto-eject {(settings.AutoEject ? "on" : "off")}";
        }
    }

    /// <summary>One pass (the contenders in turn, then the short mode's repeat of the first), shown while it runs.</summary>
    private static Task<PassResult> RunPassAsync(
        int passIndex, IReadOnlyList<Contender> contenders, LoadTestSettings settings, ValueMix mix, ServerSet servers, IProgressDisplay display, CancellationToken cancellationToken)
    {
        Contender contender = contenders[passIndex % contenders.Count];
        string name = passIndex < contenders.Count ? contender.Name : $"{contender.Name} (repeat)";
        var progress = new PassProgress(name, new PassCounters(), settings.Duration, settings.Operations);
        ValueMix contenderMix = mix.For(contender.Input);
        Task<PassResult> pass = Task.Run(() => ContenderPass.RunAsync(contender, passIndex, servers, settings, contenderMix, progress, cancellationToken), CancellationToken.None);
        return display.TrackAsync(progress, pass);
    }

    /// <summary>The report's own fields: the passes done, the short mode's repeat (the part after the contenders') and
    /// whether the run's throughput ratios can be read (warned of here).</summary>
    private static LoadTestReport Report(
        LoadTestSettings settings, int contenders, ValueMix mix, double? loadAtStart, IReadOnlyList<PassResult> results, IProgressDisplay display)
    {
        int[] keysPerShape = mix.KeysPerShape();
        PassResult[] passes = [.. results.Take(contenders)];
        PassResult? repeat = results.Count > contenders ? results[contenders] : null;
        RunReadability? readability = settings.Short && passes.Length > 0
            ? new RunReadability(
                Environment.ProcessorCount,
                loadAtStart,
                RunReadability.ReadLoadAverage(),
                passes.Min(p => p.Operations),
                repeat?.Contender,
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
            Settings = settings,
            Mix = [.. mix.Shapes.Select((s, i) => new ShapeSummary(s.Name, s.Share, keysPerShape[i], s.Description))],
            Passes = passes,
            Repeat = repeat,
            Readability = readability,
        };
    }
}
