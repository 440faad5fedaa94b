using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Models;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>The migration scenario (issue 31): a farm of web servers under load that starts as an EnyimMemcachedCore
/// application (emulated) is switched to this package one web server at a time, then, on the Enyim-shaped path, flipped
/// to protobuf object writes one at a time; every hit is checked against the source of truth, every miss fills the key.</summary>
internal static class MigrateRunner
{
    /// <summary>Starts memcached, runs every path in turn against it (flushed between paths), and stops it.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="log">Where progress lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current path stops, the rest are skipped, the servers stop.</param>
    /// <param name="wrapTranscoder">Wraps every web server's transcoder, old and new (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how) or did not start.</exception>
    public static Task<MigrateReport> RunAsync(MigrateSettings settings, TextWriter log, CancellationToken cancellationToken, Func<ITranscoder, ITranscoder>? wrapTranscoder = null) =>
        ScenarioRunner.RunAsync(
            settings,
            memoryMegabytes: 64,
            string.Create(CultureInfo.InvariantCulture, $"{settings.Clients} web servers x {settings.CallersPerClient} callers, {settings.Keys} keys, one update in {settings.UpdateEvery} operations, one web server switched every {settings.Step.TotalSeconds:0.###} s ({string.Join(", ", settings.Paths.Select(p => $"{MigrateSettings.NameOf(p)} {settings.Duration(p).TotalSeconds:0.#} s"))}); old web servers: EnyimMemcachedCore emulated (docs/loadtest.md)"),
            settings.Paths,
            (path, endpoints) => RunPathAsync(path, endpoints, settings, wrapTranscoder, cancellationToken),
            Summary,
            results => new MigrateReport { Settings = settings, Paths = results },
            log,
            cancellationToken);

    /// <summary>Returns what a path's new web servers are.</summary>
    /// <param name="path">The path.</param>
    /// <returns>A short description.</returns>
    public static string Describe(MigratePath path) => path == MigratePath.Enyim
        ? "new web servers bound from the old servers' own \"enyimMemcached\" section (EnyimMemcachedCore's key placement, objects written as BSON), then flipped one by one to protobuf object writes (\"ProtobufTranscoder\": { \"ObjectFormat\": \"Protobuf\" } added)"
        : "the contrast: new web servers bound from a section of this package's own shape (\"Memcached\": { \"Servers\": [...] }: ketama placement, objects written as protobuf)";

    /// <summary>One path: every key stored by an old server, the old farm warmed up, a step with every web server old,
    /// a step after each switch to a new one, a step after; on the Enyim-shaped path the same again for the flip.</summary>
    private static async Task<MigratePathResult> RunPathAsync(MigratePath path, string[] endpoints, MigrateSettings settings, Func<ITranscoder, ITranscoder>? wrapTranscoder, CancellationToken cancellationToken)
    {
        string name = MigrateSettings.NameOf(path);
        await using MemcachedClient control = Control(endpoints);
        await control.FlushAllAsync(cancellationToken).ConfigureAwait(false);
        ServerStats before = await ServerStats.UntilEmptyAsync(control, TimeSpan.FromSeconds(5), cancellationToken).ConfigureAwait(false);

        var tally = new MigrateTally();
        var shared = new MigrateShared(
            [.. Enumerable.Range(0, settings.Keys).Select(k => $"migrate:{name}:user:{k}")],
            new VersionedStore(settings.Keys, settings.TreeEntries, settings.Seed),
            new KeyLedger(settings.Keys),
            tally,
            settings.UpdateEvery,
            new KeyTrace(settings.Keys));
        await StoreEveryKeyAsync(shared, endpoints, name, wrapTranscoder, cancellationToken).ConfigureAwait(false);

        var atEnd = new Dictionary<MigratePhase, ServerStats>();
        async Task EnterAsync(MigratePhase next)
        {
            if (tally.Phase is MigratePhase ending)
            {
                atEnd[ending] = await ServerStats.ReadAsync(control, cancellationToken).ConfigureAwait(false);
            }

            tally.Phase = next;
        }

        // The old farm: the EnyimMemcachedCore application, emulated.
        int Seed(int server, int generation) => HashCode.Combine(settings.Seed, path, server, generation);
        var farm = new MigrateWebServer[settings.Clients];
        await EnterAsync(MigratePhase.WarmUp).ConfigureAwait(false);
        for (int i = 0; i < farm.Length; i++)
        {
            farm[i] = MigrateWebServer.Start($"old server {i + 1}", EnyimClientEmulation.Create(endpoints, tally.Write, wrapTranscoder), shared, settings.CallersPerClient, Seed(i, 0));
        }

        var clock = Stopwatch.StartNew();
        try
        {
            await ScenarioRunner.WaitUntilAsync(clock, settings.WarmUp, cancellationToken).ConfigureAwait(false);
            await EnterAsync(MigratePhase.Before).ConfigureAwait(false);
            clock.Restart();
            IConfigurationSection section = path == MigratePath.Enyim
                ? MigrationClients.EnyimSection(endpoints, secondStep: false)
                : MigrationClients.OwnSection(endpoints);
            await RollAsync(farm, i => NewServer($"new server {i + 1}", section, path == MigratePath.Enyim, shared, settings, wrapTranscoder, Seed(i, 1)), MigratePhase.Switch, MigratePhase.After, EnterAsync, clock, TimeSpan.Zero, settings, cancellationToken).ConfigureAwait(false);
            if (path == MigratePath.Enyim)
            {
                IConfigurationSection secondStep = MigrationClients.EnyimSection(endpoints, secondStep: true);
                await RollAsync(farm, i => NewServer($"new server {i + 1} (second step)", secondStep, migrationPhase: false, shared, settings, wrapTranscoder, Seed(i, 2)), MigratePhase.Flip, MigratePhase.SecondStep, EnterAsync, clock, settings.Step * settings.Clients, settings, cancellationToken).ConfigureAwait(false);
            }
        }
        finally
        {
            foreach (MigrateWebServer server in farm)
            {
                await server.StopAsync().ConfigureAwait(false);
            }
        }

        MigratePhase last = tally.Phase!.Value;
        atEnd[last] = await ServerStats.ReadAsync(control, cancellationToken).ConfigureAwait(false);

        // A miss on a key memcached held is a lost hit only when memcached evicted nothing (and no server restarted).
        ServerStats stats = atEnd[last].Since(before);
        long? evictions = stats.Unavailable.Count == 0 && stats.Restarted.Count == 0 ? stats.Evictions : null;
        return new MigratePathResult
        {
            Path = name,
            Description = Describe(path),
            Phases = [.. atEnd.Keys.Order().Select(phase => tally.Result(phase, evictions, atEnd[phase]))],
            Samples = tally.Samples(),
        };
    }

    /// <summary>Switches the farm one web server at a time: the first a step after <paramref name="from"/> on the clock,
    /// then one per step (the phase <paramref name="during"/> from the first switch on), then a step
    /// <paramref name="after"/> the last (the next roll's <paramref name="from"/> is where that step starts).</summary>
    private static async Task RollAsync(
        MigrateWebServer[] farm, Func<int, MigrateWebServer> replacement, MigratePhase during, MigratePhase after,
        Func<MigratePhase, Task> enter, Stopwatch clock, TimeSpan from, MigrateSettings settings, CancellationToken cancellationToken)
    {
        for (int i = 0; i < farm.Length; i++)
        {
            await ScenarioRunner.WaitUntilAsync(clock, from + (settings.Step * (i + 1)), cancellationToken).ConfigureAwait(false);
            if (i == 0)
            {
                await enter(during).ConfigureAwait(false);
            }

            await farm[i].StopAsync().ConfigureAwait(false);
            farm[i] = replacement(i);
        }

        await enter(after).ConfigureAwait(false);
        await ScenarioRunner.WaitUntilAsync(clock, from + (settings.Step * (farm.Length + 1)), cancellationToken).ConfigureAwait(false);
    }

    private static MigrateWebServer NewServer(string name, IConfigurationSection section, bool migrationPhase, MigrateShared shared, MigrateSettings settings, Func<ITranscoder, ITranscoder>? wrapTranscoder, int seed) =>
        MigrateWebServer.Start(
            name,
            new PackageCache(MigrationClients.FromSection(section, inner => new CheckingTranscoder(wrapTranscoder?.Invoke(inner) ?? inner, written: shared.Tally.Write)), migrationPhase),
            shared,
            settings.CallersPerClient,
            seed);

    /// <summary>A warm cache before the migration, as in production: every key stored by the old application.</summary>
    private static async Task StoreEveryKeyAsync(MigrateShared shared, string[] endpoints, string path, Func<ITranscoder, ITranscoder>? wrapTranscoder, CancellationToken cancellationToken)
    {
        await using var loader = EnyimClientEmulation.Create(endpoints, wrapTranscoder: wrapTranscoder);
        for (int k = 0; k < shared.Keys.Length; k++)
        {
            (_, UserFolderTree value) = shared.Store.Read(k);
            shared.Ledger.WriteStarted(k);
            CacheReply<bool> stored = await loader.SetAsync(shared.Keys[k], value, cancellationToken).ConfigureAwait(false);
            if (!stored.Value)
            {
                throw new InvalidOperationException($"{path}: the old application could not store {shared.Keys[k]} before the migration: {stored.Caught ?? "not stored"}");
            }

            shared.Ledger.StoreEnded(k, stored: true);
        }
    }

    /// <summary>A client that reads memcached's stats and flushes it between paths, apart from the farm.</summary>
    private static MemcachedClient Control(string[] endpoints)
    {
        var options = new MemcachedClientOptions();
        foreach (string endpoint in endpoints)
        {
            options.Servers.Add(endpoint);
        }

        return new MemcachedClient(options);
    }

    private static string Summary(MigratePathResult result) => string.Create(
        CultureInfo.InvariantCulture,
        $"{result.Path}: hit rate {string.Join(", ", result.Phases.Select(p => $"{MigrateTargets.Percent(p.HitRate)} {p.Phase}"))}; "
        + $"{result.StaleValues:N0} stale, {result.Corruptions:N0} wrong, {result.NonValues:N0} non-values read by old servers, {result.LostWrites?.ToString("N0", CultureInfo.InvariantCulture) ?? "unknown (evictions)"} lost hits, "
        + $"{result.OldServerExceptions:N0} exceptions on old servers, {result.NewServerExceptions:N0} on new servers");
}
