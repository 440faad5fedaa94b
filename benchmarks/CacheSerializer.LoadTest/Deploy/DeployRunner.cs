using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Deploy.Models;
using CacheSerializer.LoadTest.Measuring;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>The rolling-deploy scenario (issue 24): N web servers under load switch one by one from build 1 to build 2
/// of the models, change kind by change kind, while updates change keys (issue 32); every hit is checked, every miss
/// calls the factory.</summary>
internal static class DeployRunner
{
    /// <summary>Starts memcached, deploys every change kind in turn against it (flushed between kinds), and stops it.</summary>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="log">Where progress lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current kind stops, the rest are skipped, the servers stop.</param>
    /// <param name="wrapTranscoder">Wraps every web server's transcoder (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how) or did not start.</exception>
    public static Task<DeployReport> RunAsync(DeploySettings settings, TextWriter log, CancellationToken cancellationToken, Func<ITranscoder, ITranscoder>? wrapTranscoder = null) =>
        ScenarioRunner.RunAsync(
            settings,
            memoryMegabytes: 64,
            $"{settings.Clients} web servers x {settings.CallersPerClient} callers reading through {DeploySettings.NameOf(settings.Api)}, {settings.Keys} keys, one server switched to build 2 every {settings.Step.TotalSeconds:0.###} s ({settings.DurationPerKind.TotalSeconds:0.#} s per change kind)",
            settings.Kinds,
            (kind, endpoints) => RunKindAsync(kind, endpoints, settings, wrapTranscoder, cancellationToken),
            result => string.Create(CultureInfo.InvariantCulture,
                $"{result.Kind}: hit rate {result[DeployPhase.Before].HitRate:P1} before, {result[DeployPhase.During].HitRate:P1} during, {result[DeployPhase.After].HitRate:P1} after; {result.FactoryCalls:N0} factory calls, {result.Misses:N0} misses, {result.Errors} errors, {result.Corruptions} corruptions, {result.StaleValues} stale values, {result.LostWrites?.ToString(CultureInfo.InvariantCulture) ?? "unknown (evictions)"} lost writes"),
            results => new DeployReport { Settings = settings, Kinds = results },
            log,
            cancellationToken);

    /// <summary>One deploy: every key stored by build 1, then a step with every web server on build 1, a step after each
    /// switch to build 2 (the last step is "after").</summary>
    private static async Task<DeployKindResult> RunKindAsync(ChangeKind kind, string[] endpoints, DeploySettings settings, Func<ITranscoder, ITranscoder>? wrapTranscoder, CancellationToken cancellationToken)
    {
        string name = DeploySettings.NameOf(kind);
        (DeployBuild build1, DeployBuild build2) = DeployModels.For(kind);
        string[] keys = [.. Enumerable.Range(0, settings.Keys).Select(k => $"deploy:{name}:{k}")];

        // A warm cache before the deploy, as in production: every miss later is an unreadable item or a key an update
        // deleted (none expires).
        // Through the run's API, so that build 1 reads what it stored (HybridCache's entries have a format of their own).
        await using var loaderCache = DeployCache.Create(settings.Api, build1, endpoints, wrapTranscoder);
        MemcachedClient loader = loaderCache.Client;
        await loader.FlushAllAsync(cancellationToken).ConfigureAwait(false);
        ServerStats before = await ServerStats.ReadAsync(loader, cancellationToken).ConfigureAwait(false);
        for (int k = 0; k < keys.Length; k++)
        {
            MemcachedStoreResult stored = await loaderCache.WriteAsync(keys[k], k, version: 1, cancellationToken).ConfigureAwait(false);
            if (stored != MemcachedStoreResult.Stored)
            {
                throw new InvalidOperationException($"{name}: build 1 could not store {keys[k]} before the deploy: {stored}");
            }
        }

        var rows = new DeployRows(keys.Length);
        for (int k = 0; k < keys.Length; k++)
        {
            rows.Ledger.WriteStarted(k);
            rows.Ledger.StoreEnded(k, stored: true);
        }

        var tally = new DeployTally(DeployModels.ExpectedUnreadable(kind)) { Phase = DeployPhase.Before };
        var farm = new DeployWebServer[settings.Clients];
        int Seed(int server, int build) => HashCode.Combine(settings.Seed, kind, server, build);
        for (int i = 0; i < farm.Length; i++)
        {
            farm[i] = DeployWebServer.Start(settings, build1, build2, endpoints, keys, rows, tally, Seed(i, 1), wrapTranscoder);
        }

        var clock = Stopwatch.StartNew();

        // What memcached holds at the end of each phase: the deploy's cost in items and bytes (build copies), and after it.
        var held = new ServerStats[3];
        try
        {
            for (int i = 0; i < farm.Length; i++)
            {
                await ScenarioRunner.WaitUntilAsync(clock, settings.Step * (i + 1), cancellationToken).ConfigureAwait(false);
                if (i == 0)
                {
                    await UntilUpdatedAsync(tally, DeployPhase.Before, settings, cancellationToken).ConfigureAwait(false);
                    held[(int)DeployPhase.Before] = await ServerStats.ReadAsync(loader, cancellationToken).ConfigureAwait(false);
                }

                tally.Phase = DeployPhase.During;
                await farm[i].StopAsync().ConfigureAwait(false);
                farm[i] = DeployWebServer.Start(settings, build2, build1, endpoints, keys, rows, tally, Seed(i, 2), wrapTranscoder);
            }

            await UntilUpdatedAsync(tally, DeployPhase.During, settings, cancellationToken).ConfigureAwait(false);
            held[(int)DeployPhase.During] = await ServerStats.ReadAsync(loader, cancellationToken).ConfigureAwait(false);
            tally.Phase = DeployPhase.After;
            await ScenarioRunner.WaitUntilAsync(clock, settings.DurationPerKind, cancellationToken).ConfigureAwait(false);
            await UntilUpdatedAsync(tally, DeployPhase.After, settings, cancellationToken).ConfigureAwait(false);
            held[(int)DeployPhase.After] = await ServerStats.ReadAsync(loader, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            foreach (DeployWebServer server in farm)
            {
                await server.StopAsync().ConfigureAwait(false);
            }
        }

        // A miss on a stored key is a lost write only when memcached evicted nothing (and no server restarted). Checked
        // for cache-aside only: GetOrCreateAsync and HybridCache store inside the call, so the ledger cannot tell
        // whether a fill was stored (null: not known).
        ServerStats stats = (await ServerStats.ReadAsync(loader, cancellationToken).ConfigureAwait(false)).Since(before);
        long? evictions = settings.Api == DeployApi.CacheAside && stats.Unavailable.Count == 0 && stats.Restarted.Count == 0 ? stats.Evictions : null;
        return new DeployKindResult
        {
            Kind = name,
            Description = DeployModels.Describe(kind),
            Phases = [.. new[] { DeployPhase.Before, DeployPhase.During, DeployPhase.After }.Select(p => tally.Result(p, evictions) with
            {
                MemcachedItems = held[(int)p].CurrentItems,
                MemcachedBytes = held[(int)p].Bytes,
            })],
            Samples = tally.Samples(),
        };
    }

    /// <summary>With update traffic, keeps a phase going past its time until it has seen an update, for at most ten steps:
    /// every phase's report (and the checks on it) reads updates, and on a loaded machine a short run's phase can end
    /// before any caller reaches its first update (a short mode's before phase counted 29 reads and no update).</summary>
    private static async Task UntilUpdatedAsync(DeployTally tally, DeployPhase phase, DeploySettings settings, CancellationToken cancellationToken)
    {
        var waited = Stopwatch.StartNew();
        while (settings.UpdateEvery > 0 && tally.UpdatesIn(phase) == 0 && waited.Elapsed < settings.Step * 10)
        {
            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }
}
