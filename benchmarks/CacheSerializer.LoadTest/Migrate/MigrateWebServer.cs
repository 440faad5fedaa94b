using System.Globalization;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>
/// One web server of the migration: the cache client of the application it runs (old: EnyimMemcachedCore, emulated;
/// new: this package from its configuration section), and its callers, each in a loop: a read of a random key (cache-aside:
/// on a miss, a fill: the source of truth read, then a set; on a new web server every second read is
/// <c>GetOrCreateAsync</c> instead), and every Nth operation an update of the key (a new
/// version in the source of truth, then alternately a delete and an overwrite). Switching it is <see cref="StopAsync"/>
/// (the process drains its requests and exits) and a new web server (a new process, new connections).
/// </summary>
internal sealed class MigrateWebServer
{
    private readonly string _name;
    private readonly IWebServerCache _cache;
    private readonly MigrateShared _shared;
    private CallerLoops? _callers;
    private long _reads;

    private MigrateWebServer(string name, IWebServerCache cache, MigrateShared shared)
    {
        _name = name;
        _cache = cache;
        _shared = shared;
    }

    /// <summary>Starts a web server with its callers.</summary>
    /// <param name="name">Its name in samples: old server 1, new server 1, ...</param>
    /// <param name="cache">Its cache client.</param>
    /// <param name="shared">What the web servers share.</param>
    /// <param name="callers">The number of callers.</param>
    /// <param name="seed">The seed of the callers' key choices.</param>
    /// <returns>The running web server.</returns>
    public static MigrateWebServer Start(string name, IWebServerCache cache, MigrateShared shared, int callers, int seed)
    {
        var server = new MigrateWebServer(name, cache, shared);
        server._callers = new CallerLoops(callers, seed, server.CallerLoopAsync);
        return server;
    }

    /// <summary>Stops the callers (each finishes its write, or abandons its read), waits for them, and closes the client.</summary>
    /// <returns>The stop.</returns>
    public async Task StopAsync()
    {
        await _callers!.StopAsync().ConfigureAwait(false);
        await _cache.DisposeAsync().ConfigureAwait(false);
    }

    private async Task CallerLoopAsync(Random random, CancellationToken stop)
    {
        long operations = 0;
        long updates = 0;
        while (!stop.IsCancellationRequested)
        {
            int k = random.Next(_shared.Keys.Length);
            MigratePhase? phase = _shared.Tally.Phase;
            try
            {
                if (++operations % _shared.UpdateEvery == 0)
                {
                    await UpdateAsync(k, delete: updates++ % 2 == 0, phase).ConfigureAwait(false);
                }
                else
                {
                    await ReadAsync(k, phase, stop).ConfigureAwait(false);
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex) when (ex is CacheSerializerException or InvalidOperationException or IOException)
            {
                _shared.Tally.Exception(phase, _cache.Old, $"{_name}, {_shared.Keys[k]}: {ex.GetType().Name} reached the code: {ex.Message}");
            }
        }
    }

    /// <summary>A read of a key: on a new web server every second one through <c>GetOrCreateAsync</c>
    /// (<see cref="GetOrCreateAsync"/>), else cache-aside: a hit is checked against the source of truth; a miss fills the
    /// key. A hit of an old server whose value is not one (a get-or-create placeholder) is counted as such, and is a miss
    /// to its code, as EnyimMemcachedCore's null is.</summary>
    private async Task ReadAsync(int k, MigratePhase? phase, CancellationToken stop)
    {
        if (_cache is PackageCache package && (Interlocked.Increment(ref _reads) & 1) == 0)
        {
            await GetOrCreateAsync(package, k, phase, stop).ConfigureAwait(false);
            return;
        }

        string key = _shared.Keys[k];
        double began = _shared.Trace.Now;
        KeyLedger.ReadStart start = _shared.Ledger.StartRead(k);
        CacheReply<UserFolderTree?> reply = await _cache.GetAsync(key, stop).ConfigureAwait(false);
        Caught(phase, reply.Caught);
        if (reply.NotAValue is { } notAValue)
        {
            _shared.Tally.NonValue(phase, $"{_name}: {notAValue}");
        }

        if (reply.Value is UserFolderTree value)
        {
            Hit(k, start, began, value, phase, reply.Requests);
            return;
        }

        _shared.Tally.Miss(phase, !reply.ServerFailed && _shared.Ledger.IsLostHit(k, start) ? $"{_name} missed {key}, whose last write memcached had stored" : null);
        await FillAsync(k, phase).ConfigureAwait(false);
    }

    /// <summary>A read through <c>GetOrCreateAsync</c>: a value its factory made here is a miss (the source of truth read
    /// under the row's gate; the store is the client's), any other is a hit, checked as cache-aside's are.</summary>
    private async Task GetOrCreateAsync(PackageCache package, int k, MigratePhase? phase, CancellationToken stop)
    {
        string key = _shared.Keys[k];
        _shared.Tally.GetOrCreateRead(phase);
        double began = _shared.Trace.Now;
        KeyLedger.ReadStart start = _shared.Ledger.StartRead(k);
        bool created = false;
        CacheReply<UserFolderTree?> reply = await package.GetOrCreateAsync(key, async _ =>
        {
            created = true;
            SemaphoreSlim gate = _shared.Store.Gate(k);
            await gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
            try
            {
                // A write starts that the ledger never sees end (the client stores, or loses to a delete or a store):
                // until the key's next write, a miss of it proves nothing.
                (int version, UserFolderTree value) = _shared.Store.Read(k);
                _shared.Ledger.WriteStarted(k);
                _shared.Trace.Add(k, string.Create(CultureInfo.InvariantCulture, $"{_name} factory read v{version}"));
                return value;
            }
            finally
            {
                gate.Release();
            }
        }, stop).ConfigureAwait(false);
        Caught(phase, reply.Caught);
        if (created)
        {
            _shared.Trace.Add(k, $"{_name} GetOrCreateAsync ran the factory: {reply.Requests}", began);
            _shared.Tally.Miss(phase, !reply.ServerFailed && _shared.Ledger.IsLostHit(k, start) ? $"{_name} ran the factory of {key} (GetOrCreateAsync), whose last write memcached had stored" : null);
        }
        else
        {
            Hit(k, start, began, reply.Value!, phase, reply.Requests);
        }
    }

    /// <summary>Checks a hit against the source of truth: stale, wrong, or right. A stale value is reported with the
    /// read's requests and the key's last writes (<see cref="KeyTrace"/>): which web server made each, what memcached
    /// answered, when.</summary>
    private void Hit(int k, KeyLedger.ReadStart start, double began, UserFolderTree value, MigratePhase? phase, string? requests)
    {
        string key = _shared.Keys[k];
        int? version = _shared.Store.Identify(k, value);
        _shared.Tally.Hit(
            phase,
            version is int v && KeyLedger.IsStale(start, v)
                ? string.Create(CultureInfo.InvariantCulture, $"{_name} read {key} at version {v} [{began:F1}-{_shared.Trace.Now:F1} ms{(requests is null ? string.Empty : ": " + requests)}], after the delete or overwrite made for version {start.Invalidated} had completed; the key's last writes: {_shared.Trace.Of(k)}")
                : null,
            version is null ? string.Create(CultureInfo.InvariantCulture, $"{_name} read {key}: a value that is no version of the key (loaded {value.Loaded:O})") : null);
    }

    /// <summary>The source of truth read and its value stored, under the row's gate. A write in progress completes
    /// even when the web server stops (the process drains it), so the ledger always knows how it ended.</summary>
    private async Task FillAsync(int k, MigratePhase? phase)
    {
        SemaphoreSlim gate = _shared.Store.Gate(k);
        await gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
        try
        {
            (int version, UserFolderTree value) = _shared.Store.Read(k);
            _shared.Ledger.WriteStarted(k);
            double started = _shared.Trace.Now;
            CacheReply<bool> stored = await _cache.SetAsync(_shared.Keys[k], value, CancellationToken.None).ConfigureAwait(false);
            Caught(phase, stored.Caught);
            _shared.Trace.Add(k, string.Create(CultureInfo.InvariantCulture, $"{_name} fill v{version}: {stored.Requests}"), started);
            _shared.Ledger.StoreEnded(k, stored.Value);
        }
        finally
        {
            gate.Release();
        }
    }

    /// <summary>An update: the next version in the source of truth, then the key deleted or overwritten with it.</summary>
    private async Task UpdateAsync(int k, bool delete, MigratePhase? phase)
    {
        string key = _shared.Keys[k];
        SemaphoreSlim gate = _shared.Store.Gate(k);
        await gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
        try
        {
            (int version, UserFolderTree value) = _shared.Store.Update(k);
            _shared.Tally.Update(phase);
            _shared.Ledger.WriteStarted(k);
            double started = _shared.Trace.Now;
            if (delete)
            {
                CacheReply<bool> deleted = await _cache.DeleteAsync(key, CancellationToken.None).ConfigureAwait(false);
                Caught(phase, deleted.Caught);
                _shared.Trace.Add(k, string.Create(CultureInfo.InvariantCulture, $"{_name} delete for v{version}, {(deleted.Value ? "completed" : "not completed")}: {deleted.Requests}"), started);
                _shared.Ledger.DeleteEnded(k, deleted.Value);
                if (deleted.Value)
                {
                    _shared.Ledger.Invalidated(k, version);
                }
            }
            else
            {
                CacheReply<bool> stored = await _cache.SetAsync(key, value, CancellationToken.None).ConfigureAwait(false);
                Caught(phase, stored.Caught);
                _shared.Trace.Add(k, string.Create(CultureInfo.InvariantCulture, $"{_name} overwrite v{version}: {stored.Requests}"), started);
                _shared.Ledger.StoreEnded(k, stored.Value);
                if (stored.Value)
                {
                    _shared.Ledger.Invalidated(k, version);
                }
            }
        }
        finally
        {
            gate.Release();
        }
    }

    private void Caught(MigratePhase? phase, string? caught)
    {
        if (caught is not null)
        {
            _shared.Tally.Exception(phase, _cache.Old, $"{_name}: {caught}");
        }
    }
}
