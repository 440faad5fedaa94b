using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>
/// One web server of the deploy: one build of the models, its own cache (<see cref="DeployCache"/>: client, transcoder,
/// HybridCache for that way), and its callers reading random keys the run's way (<see cref="DeployApi"/>), and every Nth
/// operation an update of the key. Deploying it to the next build is <see cref="StopAsync"/> (the process drains its
/// requests and exits) and a new web server of build 2 (a new process, new connections).
/// </summary>
internal sealed class DeployWebServer
{
    private readonly DeployCache _cache;
    private readonly DeployApi _api;
    private CallerLoops? _callers;

    private DeployWebServer(DeployCache cache, DeployApi api)
    {
        _cache = cache;
        _api = api;
    }

    /// <summary>Starts a web server of <paramref name="build"/> with its callers.</summary>
    /// <param name="settings">The run's settings: how the build's code reads through the cache (and fills), the number
    /// of callers, how often they update.</param>
    /// <param name="build">The build it runs.</param>
    /// <param name="other">The other build (a hit equal to its value for the key is counted apart, not as wrong).</param>
    /// <param name="endpoints">The memcached servers.</param>
    /// <param name="keys">The keys; version v of key k's value is made from (k, v).</param>
    /// <param name="rows">The source of truth: each key's version, its row gate, and the ledger of cache writes.</param>
    /// <param name="tally">The counts.</param>
    /// <param name="seed">The seed of the callers' key choices.</param>
    /// <param name="wrapTranscoder">Wraps the build's transcoder (tests), or null.</param>
    /// <returns>The running web server.</returns>
    public static DeployWebServer Start(DeploySettings settings, DeployBuild build, DeployBuild other, IReadOnlyList<string> endpoints, string[] keys, DeployRows rows, DeployTally tally, int seed, Func<ITranscoder, ITranscoder>? wrapTranscoder)
    {
        var cache = DeployCache.Create(settings.Api, build, endpoints, wrapTranscoder);
        var server = new DeployWebServer(cache, settings.Api);
        var caller = new Caller(build, other, keys, rows, tally, settings.UpdateEvery, settings.FillsOverwrite);
        server._callers = new CallerLoops(settings.CallersPerClient, seed, (random, stop) => server.CallerLoopAsync(caller, random, stop));
        return server;
    }

    /// <summary>Stops the callers (each finishes or abandons its request), waits for them, and closes the client.</summary>
    /// <returns>The stop.</returns>
    public async Task StopAsync()
    {
        await _callers!.StopAsync().ConfigureAwait(false);
        await _cache.DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>One caller: read a random key (cache-aside, or through GetOrCreateAsync); check a hit's value, count a
    /// miss; every Nth operation, update the key instead.</summary>
    private async Task CallerLoopAsync(Caller caller, Random random, CancellationToken stop)
    {
        DeployBuild build = caller.Build;
        for (long operation = 1; !stop.IsCancellationRequested; operation++)
        {
            int k = random.Next(caller.Keys.Length);
            string key = caller.Keys[k];
            DeployPhase phase = caller.Tally.Phase;
            try
            {
                if (caller.UpdateEvery > 0 && operation % caller.UpdateEvery == 0)
                {
                    await UpdateAsync(caller, k, phase, deleteIt: operation / caller.UpdateEvery % 2 == 0, stop).ConfigureAwait(false);
                    continue;
                }

                if (_api != DeployApi.CacheAside)
                {
                    await ReadThroughAsync(caller, k, phase, stop).ConfigureAwait(false);
                    continue;
                }

                // The client reads an item this build cannot read as a miss; its transcoder marks the read's probe.
                Checking.KeyLedger.ReadStart start = caller.Rows.Ledger.StartRead(k);
                int versionAtStart = caller.Rows.Version(k);
                int seenAtStart = caller.Rows.SeenVersion(build.Number, k);
                var probe = ReadProbe.Start();
                string? value = await build.ReadAsync(_cache.Client, key, stop).ConfigureAwait(false);
                if (value is not null)
                {
                    CheckHit(caller, k, start, value, phase);
                    caller.Rows.Seen(build.Number, k, versionAtStart);
                    continue;
                }

                caller.Tally.Miss(phase, probe.Unreadable, caller.Rows.Ledger.IsLostHit(k, start), caller.Rows.MissCausedByUpdate(k, seenAtStart), $"build {build.Number}, {key}");
                caller.Tally.FactoryCall(phase);
                await FillAsync(caller, k, phase, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex) when (ex is CacheSerializerException or InvalidOperationException or IOException)
            {
                caller.Tally.Error(phase, $"build {build.Number}, {key}: {ex.GetType().Name}: {ex.Message}");
            }
        }
    }

    /// <summary>A read through GetOrCreateAsync: a call whose factory ran (this caller's, or the process's shared call it
    /// started) is the miss; any other answer is a hit, checked. The factory reads the row's version under its gate and
    /// lets go of it before the value is stored: the store is the API's own (the client's CAS store on its win,
    /// HybridCache's set), raced by updates as in an application. A call the web server's stop cut short counts nothing:
    /// HybridCache turns a cancelled L2 read into a factory call, which is the stop's doing, not the cache's.</summary>
    private async Task ReadThroughAsync(Caller caller, int k, DeployPhase phase, CancellationToken stop)
    {
        DeployBuild build = caller.Build;
        string key = caller.Keys[k];
        Checking.KeyLedger.ReadStart start = caller.Rows.Ledger.StartRead(k);
        int versionAtStart = caller.Rows.Version(k);
        int seenAtStart = caller.Rows.SeenVersion(build.Number, k);
        var probe = ReadProbe.Start();
        bool loaded = false;
        string? unreadable = null;
        bool causedByUpdate = false;
        string value = await _cache.GetOrCreateAsync(key, k, async token =>
        {
            loaded = true;
            unreadable = probe.Unreadable;
            causedByUpdate = caller.Rows.MissCausedByUpdate(k, seenAtStart);
            SemaphoreSlim gate = caller.Rows.Gate(k);
            await gate.WaitAsync(token).ConfigureAwait(false);
            try
            {
                int version = caller.Rows.Version(k);
                caller.Rows.Seen(build.Number, k, version);
                return version;
            }
            finally
            {
                gate.Release();
            }
        }, stop).ConfigureAwait(false);
        if (stop.IsCancellationRequested)
        {
            return;
        }

        if (loaded)
        {
            caller.Tally.Miss(phase, unreadable, lostWrite: false, causedByUpdate, $"build {build.Number}, {key}");
            caller.Tally.FactoryCall(phase);
            return;
        }

        CheckHit(caller, k, start, value, phase);
        caller.Rows.Seen(build.Number, k, versionAtStart);
    }

    /// <summary>A hit is right when it is a version of the key either build's factory made, and stale when that
    /// version is older than one whose delete or overwrite had completed before the read began.</summary>
    private static void CheckHit(Caller caller, int k, Checking.KeyLedger.ReadStart start, string value, DeployPhase phase)
    {
        DeployBuild build = caller.Build;
        DeployBuild other = caller.Other;
        for (int version = caller.Rows.Version(k); version >= 1; version--)
        {
            bool own = value == build.Expected(k, version);
            if (own || value == other.Expected(k, version))
            {
                string? stale = Checking.KeyLedger.IsStale(start, version)
                    ? $"build {build.Number}, {caller.Keys[k]}: read version {version} after the delete or overwrite made for version {start.Invalidated} had completed"
                    : null;
                caller.Tally.Hit(phase, !own, stale, corruption: null);
                return;
            }
        }

        caller.Tally.Hit(phase, otherBuild: false, stale: null, $"build {build.Number}, {caller.Keys[k]}: read \"{value}\", which is no version of the key either build makes");
    }

    /// <summary>The factory after a miss: the key's current version, added under the row's gate (not stored when
    /// another caller's fill came first, which is no error), or overwritten (<see cref="DeploySettings.FillsOverwrite"/>).</summary>
    private async Task FillAsync(Caller caller, int k, DeployPhase phase, CancellationToken stop)
    {
        SemaphoreSlim gate = caller.Rows.Gate(k);
        await gate.WaitAsync(stop).ConfigureAwait(false);
        try
        {
            caller.Rows.Ledger.WriteStarted(k);
            int version = caller.Rows.Version(k);
            MemcachedStoreResult stored = caller.FillsOverwrite
                ? await caller.Build.WriteAsync(_cache.Client, caller.Keys[k], k, version, stop).ConfigureAwait(false)
                : await caller.Build.FillAsync(_cache.Client, caller.Keys[k], k, version, stop).ConfigureAwait(false);
            if (stored == MemcachedStoreResult.Stored)
            {
                // Only a fill that stored: one that found the key filled meanwhile (by the other build, after a delete)
                // leaves this build's next read to miss, which the update before it caused.
                caller.Rows.Seen(caller.Build.Number, k, version);
            }
            caller.Rows.Ledger.StoreEnded(k, stored == MemcachedStoreResult.Stored);
            if (stored is not (MemcachedStoreResult.Stored or MemcachedStoreResult.NotStored))
            {
                caller.Tally.Error(phase, $"build {caller.Build.Number}, add {caller.Keys[k]}: {stored}");
            }
        }
        finally
        {
            gate.Release();
        }
    }

    /// <summary>An update: the key's next version in the source of truth, then a delete of the key or an overwrite with
    /// that version, under the row's gate; once it completed, reads of older versions are stale.</summary>
    private async Task UpdateAsync(Caller caller, int k, DeployPhase phase, bool deleteIt, CancellationToken stop)
    {
        SemaphoreSlim gate = caller.Rows.Gate(k);
        await gate.WaitAsync(stop).ConfigureAwait(false);
        try
        {
            int version = caller.Rows.Update(k);
            caller.Tally.Update(phase);
            caller.Rows.Ledger.WriteStarted(k);
            if (deleteIt)
            {
                // Deleted or not there: either way memcached holds no older version now (no server fails in this scenario).
                await _cache.DeleteAsync(caller.Keys[k], stop).ConfigureAwait(false);
                caller.Rows.Ledger.DeleteEnded(k, completed: true);
                caller.Rows.Ledger.Invalidated(k, version);
                return;
            }

            MemcachedStoreResult stored = await _cache.WriteAsync(caller.Keys[k], k, version, stop).ConfigureAwait(false);
            caller.Rows.Ledger.StoreEnded(k, stored == MemcachedStoreResult.Stored);
            if (stored == MemcachedStoreResult.Stored)
            {
                caller.Rows.Ledger.Invalidated(k, version);
            }
            else
            {
                caller.Tally.Error(phase, $"build {caller.Build.Number}, overwrite {caller.Keys[k]}: {stored}");
            }
        }
        finally
        {
            gate.Release();
        }
    }

    /// <summary>What one caller works with.</summary>
    private sealed record Caller(DeployBuild Build, DeployBuild Other, string[] Keys, DeployRows Rows, DeployTally Tally, int UpdateEvery, bool FillsOverwrite);
}
