using System.Globalization;
using System.Runtime.InteropServices;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.LoadTest.Running;

/// <summary>The whole run: servers up, one pass per contender in turn, servers down (also on Ctrl+C or failure).</summary>
internal static class LoadTestRunner
{
    /// <summary>Returns the contenders a run uses: the named ones, or by default the five of issue 12: this package's
    /// transcoder without and with compression, then BSON, BinaryFormatter and BinaryFormatter + Deflate.</summary>
    /// <param name="names">Names from <see cref="ContenderCatalog"/>, or empty for the default.</param>
    /// <returns>The contenders, in the order given.</returns>
    /// <exception cref="ArgumentException">A name is not in the catalog.</exception>
    public static IReadOnlyList<Contender> SelectContenders(IReadOnlyList<string> names)
    {
        if (names.Count > 0)
        {
            return names.Select(name =>
                ContenderCatalog.All.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.OrdinalIgnoreCase))
                ?? throw new ArgumentException($"--contenders: no contender is named '{name}'; known: {string.Join(", ", ContenderCatalog.All.Select(c => c.Name))}."))
                .ToArray();
        }

        return
        [
            ContenderCatalog.Get(ContenderCatalog.CacheSerializer),
            ContenderCatalog.Get(ContenderCatalog.CacheSerializerCompressed),
            ContenderCatalog.Get(ContenderCatalog.Bson),
            ContenderCatalog.Get(ContenderCatalog.BinaryFormatter),
            ContenderCatalog.Get(ContenderCatalog.DeflateBinaryFormatter),
        ];
    }

    /// <summary>Runs every pass.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="display">Where progress goes.</param>
    /// <param name="cancellationToken">Ctrl+C: the current pass stops, the rest are skipped, the servers stop.</param>
    /// <returns>The report.</returns>
    public static async Task<LoadTestReport> RunAsync(LoadTestSettings settings, IProgressDisplay display, CancellationToken cancellationToken)
    {
        settings.Validate();
        IReadOnlyList<Contender> contenders = SelectContenders(settings.Contenders);
        DateTimeOffset started = DateTimeOffset.UtcNow;
        string loadBefore = LoadAverage();

        var mix = ValueMix.CreateDefault(settings.Keys, settings.Seed);

        using ServerSet servers = ServerSet.Open(settings);

        // A terminal closed or a kill (SIGHUP, SIGTERM) ends the process without running finally blocks; stop the
        // started servers on the way out anyway, so no memcached outlives the run.
        void StopServers(object? sender, EventArgs e) => servers.Dispose();
        AppDomain.CurrentDomain.ProcessExit += StopServers;
        using PosixSignalRegistration hup = PosixSignalRegistration.Create(PosixSignal.SIGHUP, _ => servers.Dispose());
        try
        {
            return await RunPassesAsync(settings, display, contenders, mix, servers, started, loadBefore, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            AppDomain.CurrentDomain.ProcessExit -= StopServers;
        }
    }

    private static async Task<LoadTestReport> RunPassesAsync(
        LoadTestSettings settings, IProgressDisplay display, IReadOnlyList<Contender> contenders, ValueMix mix, ServerSet servers, DateTimeOffset started, string loadBefore, CancellationToken cancellationToken)
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

        var passes = new List<PassResult>();
        for (int i = 0; i < contenders.Count && !cancellationToken.IsCancellationRequested; i++)
        {
            Contender contender = contenders[i];
            int passIndex = i;
            var progress = new PassProgress(contender.Name, new PassCounters(), settings.Duration, settings.Operations);
            Task<PassResult> pass = Task.Run(() => ContenderPass.RunAsync(contender, passIndex, servers, settings, mix, progress, cancellationToken), CancellationToken.None);
            try
            {
                passes.Add(await display.TrackAsync(progress, pass).ConfigureAwait(false));
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Ctrl+C before the users started (during the flush or the first stats): nothing of this pass to report.
                break;
            }
        }

        return new LoadTestReport
        {
            Started = started,
            Finished = DateTimeOffset.UtcNow,
            Machine = MachineLine(),
            LoadAverage = $"{loadBefore} at start, {LoadAverage()} at end (1-minute, {Environment.ProcessorCount} cores)",
            Settings = settings,
            Servers = serverLine,
            Mix = [.. mix.Shapes.Select((s, i) => new ShapeSummary(s.Name, s.Share, keysPerShape[i], s.Description))],
            Passes = passes,
        };
    }

    /// <summary>Returns the machine line: .NET runtime, OS, CPU model (from /proc/cpuinfo on Linux) and cores.</summary>
    /// <returns>The line.</returns>
    public static string MachineLine()
    {
        string cpu = "unknown CPU";
        try
        {
            if (File.Exists("/proc/cpuinfo"))
            {
                string? line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
                cpu = line is null ? cpu : line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
            }
        }
        catch (IOException)
        {
        }

        return $"{RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, {cpu}, {Environment.ProcessorCount} cores";
    }

    /// <summary>Returns the 1-minute load average (Linux), or "n/a".</summary>
    /// <returns>The load average.</returns>
    internal static string LoadAverage()
    {
        try
        {
            return File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "n/a";
        }
        catch (IOException)
        {
            return "n/a";
        }
    }
}
