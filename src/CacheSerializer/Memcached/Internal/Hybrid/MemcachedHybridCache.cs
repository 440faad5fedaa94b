using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Reading;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The package's own <see cref="HybridCache"/> over a client's engine (docs/hybrid.md): L2 entries are
/// <c>GetOrCreateAsync</c>'s, filled through its leases (one factory call per miss in the farm, the fill bound to the
/// CAS it won) and wrapped in a <see cref="HybridEnvelope"/>; L1 is kept coherent by the <see cref="InvalidationLog"/>.</summary>
internal sealed partial class MemcachedHybridCache : HybridCache, IDisposable
{
    private static readonly TimeSpan DefaultExpiration = TimeSpan.FromMinutes(5);

    private readonly MemcachedEngine _engine;
    private readonly MemcachedHybridCacheOptions _options;
    private readonly EntryPolicy _leaseDefaults;
    private readonly HybridSerializers _serializers;
    private readonly LocalCache _local;
    private readonly TagTable _tags;
    private readonly InvalidationLog _log;
    private readonly PendingChanges _pending = new();
    private readonly ILogger _logger;
    private int _keyTooLongLogged;

    /// <exception cref="MemcachedConfigurationException">An option is out of range; the exception names it and the fix.</exception>
    internal MemcachedHybridCache(MemcachedEngine engine, MemcachedHybridCacheOptions options, IServiceProvider? services, ILoggerFactory? loggerFactory)
    {
        if (options.Problems() is [var (property, problem), ..])
        {
            throw new MemcachedConfigurationException(property, $"MemcachedHybridCacheOptions.{property} {problem}.");
        }

        _engine = engine;
        _options = options;
        _logger = (ILogger?)loggerFactory?.CreateLogger<MemcachedHybridCache>() ?? engine.Logger;
        _leaseDefaults = options.GetOrCreate is null ? engine.Settings.GetOrCreate : EntryPolicy.Resolve(options.GetOrCreate, engine.Settings.GetOrCreate);
        _serializers = new HybridSerializers(services, new ItemReader(engine.Transcoder, engine.Settings.OnUnreadableItem, _logger, "memcached HybridCache"));
        _local = new LocalCache(options.MaximumLocalEntries);
        _tags = new TagTable(engine);
        _log = new InvalidationLog(engine, _local, _tags, options.InvalidationBound, RetryPendingAsync, Missed);
    }

    /// <summary>Gets the invalidation log and its poller (for tests).</summary>
    internal InvalidationLog Log => _log;

    /// <summary>Gets the in-process level (for tests).</summary>
    internal LocalCache Local => _local;

    /// <summary>Gets the removals memcached did not take yet (for tests).</summary>
    internal PendingChanges Pending => _pending;

    private bool Strict => _options.L1Coherence == HybridCacheCoherence.Strict;

    public override ValueTask<T> GetOrCreateAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory, HybridCacheEntryOptions? options = null, IEnumerable<string>? tags = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(factory);
        return TryLocalNow(key, options, out T value) ? new ValueTask<T>(value) : GetOrCreateSlowAsync(key, state, factory, options, tags, cancellationToken);
    }

    private async ValueTask<T> GetOrCreateSlowAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> factory, HybridCacheEntryOptions? options, IEnumerable<string>? tags, CancellationToken cancellationToken)
    {
        var call = new Call<TState, T>(this, key, state, factory, Resolve(options), TagsOf(tags), _serializers.For<T>());
        if (!IsCacheable(key))
        {
            return call.Has(HybridCacheEntryFlags.DisableUnderlyingData) ? default! : await factory(state, cancellationToken).ConfigureAwait(false);
        }

        if (!call.Has(HybridCacheEntryFlags.DisableLocalCacheRead) && await TryLocalAsync(call, cancellationToken).ConfigureAwait(false) is { } local)
        {
            return local.Value;
        }

        // A late poller is waited for (two bounds at most, not in an outage): what a key's server did not take yet, the
        // log says, and only a poller that read it keeps the key pending (docs/hybrid.md, "Failures").
        if (!_log.IsFresh && !_log.InOutage)
        {
            await _log.UntilFreshAsync(_options.InvalidationBound * 2, cancellationToken).ConfigureAwait(false);
        }

        long readAt = _local.Epoch;

        // A key whose removal has not reached memcached yet: what memcached holds may be the old value, so it is neither
        // read nor written here until it has (other servers, which do not know, may still read it: docs/hybrid.md,
        // "Failures"). The factory's value, made after the removal, is kept in L1 as any other.
        // The gutter, read while the key's own server is down, holds nothing a completed removal covered (every removal
        // deletes it, or says it did not: M), so a pending key is read there too.
        string? gutter = GutterFor(key);
        Made<T> made = _pending.Holds(key) && gutter is null && !await _pending.RetryKeyAsync(key, MakeChangeAsync, cancellationToken).ConfigureAwait(false)
            ? await CreateAsync(call, store: false, cancellationToken).ConfigureAwait(false)
            : await ReadThroughAsync(call, gutter ?? key, cancellationToken).ConfigureAwait(false);
        if (made.Envelope is not null && !call.Has(HybridCacheEntryFlags.DisableLocalCacheWrite))
        {
            StoreLocal(call, made, readAt);
        }

        return made.Value;
    }

    public override async ValueTask SetAsync<T>(string key, T value, HybridCacheEntryOptions? options = null, IEnumerable<string>? tags = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        if (!IsCacheable(key))
        {
            return;
        }

        var call = new Call<int, T>(this, key, 0, null!, Resolve(options), TagsOf(tags), _serializers.For<T>());
        _local.Drop(key);
        HybridEnvelope envelope = call.Codec.Wrap(value, await CreationAsync(call.Tags, cancellationToken).ConfigureAwait(false), call.Tags);
        byte[]? stored = Fits(envelope) ? envelope.ToBytes() : null;
        bool writes = stored is not null && !call.Has(HybridCacheEntryFlags.DisableDistributedCacheWrite);
        Task<bool> gutterDeleted = TryDeleteGutterAsync(key, cancellationToken);
        bool taken = !writes || await StoreAsync(key, stored!, call.Entry.Expiration, cancellationToken).ConfigureAwait(false);
        bool gutter = await gutterDeleted.ConfigureAwait(false);

        bool logged = await AppendAsync(KindOf(taken, gutter), key, cancellationToken).ConfigureAwait(false) is not null;
        long dropped = _local.Drop(key);
        if (!taken || !logged)
        {
            _pending.Add(tag: false, key, logged: !taken && logged); // made again as a removal: the next read loads the value anew
        }

        if (!logged)
        {
            return; // not logged: no bound to wait for
        }

        await WaitTheBoundAsync(changedAtL2: writes && taken, cancellationToken).ConfigureAwait(false);
        if (!taken)
        {
            return;
        }

        if (stored is not null && !call.Has(HybridCacheEntryFlags.DisableLocalCacheWrite))
        {
            StoreLocal(call, new Made<T>(value, envelope, 0), dropped);
        }
    }

    public override async ValueTask RemoveAsync(string key, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        bool deleted = await RemoveOneAsync(key, cancellationToken).ConfigureAwait(false);
        await WaitTheBoundAsync(changedAtL2: deleted, cancellationToken).ConfigureAwait(false);
    }

    public override async ValueTask RemoveAsync(IEnumerable<string> keys, CancellationToken cancellationToken = default)
    {
        string[] all = keys is null ? [] : [.. keys];
        if (all.Length == 0)
        {
            return;
        }

        bool[] deleted = await Task.WhenAll(all.Select(key => RemoveOneAsync(key, cancellationToken))).ConfigureAwait(false);
        await WaitTheBoundAsync(changedAtL2: deleted.All(static d => d), cancellationToken).ConfigureAwait(false);
    }

    /// <remarks>A tag removal changes no item's CAS token, so it waits the bound in both modes.</remarks>
    public override async ValueTask RemoveByTagAsync(IEnumerable<string> tags, CancellationToken cancellationToken = default)
    {
        string[] all = [.. Named(tags)];
        if (all.Length == 0)
        {
            return;
        }

        await Task.WhenAll(all.Select(async tag =>
        {
            if (!await MakeChangeAsync(tag: true, tag, logged: false, cancellationToken).ConfigureAwait(false))
            {
                // Not logged (memcached failed): this server refuses the tag's entries, at both levels, until it logs the
                // removal again once memcached takes it (which gives the removal its sequence: TagTable.Resolve).
                _tags.Suspend(tag, _local.Next());
                _local.Clear();
                _pending.Add(tag: true, tag, logged: true); // logged: every server was told (if the mirrors took it)
            }
        })).ConfigureAwait(false);
        await Task.Delay(_options.InvalidationBound, cancellationToken).ConfigureAwait(false);
    }

    public override ValueTask RemoveByTagAsync(string tag, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(tag);
        return RemoveByTagAsync([tag], cancellationToken);
    }

    /// <summary>Stops the poller.</summary>
    public void Dispose() => _log.Dispose();

    /// <summary>A change by key returns once every server's L1 has dropped the old copy: after the bound in
    /// <c>Bounded</c>; in <c>Strict</c>, whose L1 hits check the item's CAS token, at once when the change was made at L2
    /// (<paramref name="changedAtL2"/>), else after the bound too (the key's server could not be reached, and copies of a
    /// key whose server cannot be asked are served as <c>Bounded</c> serves them).</summary>
    private Task WaitTheBoundAsync(bool changedAtL2, CancellationToken cancellationToken) =>
        Strict && changedAtL2 ? Task.CompletedTask : Task.Delay(_options.InvalidationBound, cancellationToken);

    /// <summary>The creation sequence of an entry with <paramref name="tags"/> whose value is made after now (docs/hybrid.md, "Tags").</summary>
    private async ValueTask<ulong> CreationAsync(string[] tags, CancellationToken cancellationToken) =>
        await _tags.CreationAsync(await _log.CreationAsync(cancellationToken).ConfigureAwait(false), tags, cancellationToken).ConfigureAwait(false);

    private static string[] TagsOf(IEnumerable<string>? tags) => [.. Named(tags).Take(HybridEnvelope.MaxTags)];

    /// <summary>The tags that name something, once each.</summary>
    private static IEnumerable<string> Named(IEnumerable<string>? tags) =>
        tags is null ? [] : tags.Where(static t => !string.IsNullOrEmpty(t)).Distinct(StringComparer.Ordinal);

    private Entry Resolve(HybridCacheEntryOptions? options)
    {
        HybridCacheEntryOptions? defaults = _options.DefaultEntryOptions;
        TimeSpan expiration = options?.Expiration ?? defaults?.Expiration ?? DefaultExpiration;
        TimeSpan local = options?.LocalCacheExpiration ?? defaults?.LocalCacheExpiration ?? expiration;
        HybridCacheEntryFlags flags = FlagsOf(options);
        EntryPolicy lease = expiration == _leaseDefaults.Expiration ? _leaseDefaults : EntryPolicy.Resolve(new GetOrCreateOptions { Expiration = expiration }, _leaseDefaults);
        return new Entry(expiration, local < expiration ? local : expiration, flags, lease);
    }

    private HybridCacheEntryFlags FlagsOf(HybridCacheEntryOptions? options) =>
        (options?.Flags ?? HybridCacheEntryFlags.None) | (_options.DefaultEntryOptions?.Flags ?? HybridCacheEntryFlags.None);

    private bool FitsKeyLength(string key) => key.Length is > 0 && key.Length <= _options.MaximumKeyLength;

    private bool IsCacheable(string key)
    {
        if (FitsKeyLength(key))
        {
            return true;
        }

        if (Interlocked.Exchange(ref _keyTooLongLogged, 1) == 0)
        {
            LogKeyNotCached(_logger, key.Length, _options.MaximumKeyLength);
        }

        return false;
    }

    private bool Fits(HybridEnvelope envelope) => envelope.Value.Count <= _options.MaximumPayloadBytes;

    /// <summary>An L1 copy, if it may be served now: within its local expiration, checked as the mode says, and not
    /// invalidated by a tag.</summary>
    /// <remarks>Whether the poller is fresh is read before the copy is taken: a copy taken first could be dropped by a
    /// poll that completes before the freshness is read, and then be served. While the log cannot be read, a copy is
    /// checked as <c>Strict</c> checks it, against the CAS token of the key on its own server (which may well answer:
    /// with several memcached servers, the log's is one of them), and served unchecked only when that server cannot be
    /// asked either.</remarks>
    private async ValueTask<Made<T>?> TryLocalAsync<TState, T>(Call<TState, T> call, CancellationToken cancellationToken)
    {
        bool fresh = _log.IsFresh;
        bool outage = ServesL1ForOutage;
        if (!_local.TryGet(call.Key, out LocalEntry entry))
        {
            return null;
        }

        if (Strict || outage)
        {
            ulong? cas = await CheckedCasAsync(call.Key, cancellationToken).ConfigureAwait(false);
            if (cas is null && Strict && !outage)
            {
                // The key's server cannot be asked. A copy read from the gutter is checked there: every removal deletes the
                // gutter copy before it returns (or names it: M, N). Any other copy is not served: a remover whose client
                // still reached the server (a restart this client has not seen yet) returned at once, without the bound.
                // It is read again, from the gutter (one factory call for the farm).
                cas = entry.FromGutter && !_gutterMissed.ContainsKey(call.Key) && Gutter.KeyOf(_engine, call.Key) is string gutter
                    ? await CheckedCasAsync(gutter, cancellationToken).ConfigureAwait(false)
                    : null;
                if (cas is null)
                {
                    return Dropped<T>(call.Key, entry);
                }
            }

            // Changed or gone (a copy made here, whose token is 0 until read, is read again). In an outage whose key's
            // server cannot be asked either (null), served as an outage serves (ServeL1DuringOutage).
            if (cas is ulong token && (token == 0 || token != entry.Cas))
            {
                return Dropped<T>(call.Key, entry);
            }
        }
        else if (!fresh)
        {
            return null;
        }

        if (outage ? _tags.ValidAsKnown(entry.Envelope.Creation, entry.Envelope.Tags, entry.ReadAt) == false
            : !await _tags.IsValidAsync(entry.Envelope.Creation, entry.Envelope.Tags, fresh, cancellationToken, entry.ReadAt).ConfigureAwait(false))
        {
            return Dropped<T>(call.Key, entry);
        }

        return Served(call, entry);
    }

    private Made<T>? Dropped<T>(string key, LocalEntry entry)
    {
        _local.Remove(key, entry);
        return null;
    }

    /// <summary>The value of an L1 copy (<see cref="TryValueOf"/>), with its envelope and CAS token.</summary>
    private static Made<T>? Served<TState, T>(Call<TState, T> call, LocalEntry entry) =>
        TryValueOf(entry, call.Codec, out T value) ? new Made<T>(value, entry.Envelope, entry.Cas) : null;

    /// <summary>The value of an L1 copy: the shared instance of an immutable type, else a fresh copy read from its
    /// envelope; false when that cannot be read.</summary>
    private static bool TryValueOf<T>(LocalEntry entry, HybridSerializers.Codec<T> codec, out T value)
    {
        if (entry.Shared is T shared)
        {
            value = shared;
            return true;
        }

        return codec.TryRead(entry.Envelope, out value);
    }

    /// <summary>An L1 hit that needs no request, judged without allocating: <c>Bounded</c> with a fresh poller, and
    /// every tag of the entry known here. Anything else (a miss, <c>Strict</c>'s check, a tag to read, an
    /// entry to drop) is the slow path's.</summary>
    private bool TryLocalNow<T>(string key, HybridCacheEntryOptions? options, out T value)
    {
        value = default!;

        // Freshness before the copy (see TryLocalAsync); an outage's hits are checked on the key's server (the slow path).
        if (Strict || !_log.IsFresh || (FlagsOf(options) & HybridCacheEntryFlags.DisableLocalCacheRead) != 0 || !FitsKeyLength(key)
            || !_local.TryGet(key, out LocalEntry entry) || _tags.ValidAsKnown(entry.Envelope.Creation, entry.Envelope.Tags, entry.ReadAt) != true)
        {
            return false;
        }

        return TryValueOf(entry, _serializers.For<T>(), out value);
    }

    /// <summary>Gets a value indicating whether L1 copies are served as they are: the invalidation log cannot be read
    /// and the options serve the last value during an outage.</summary>
    private bool ServesL1ForOutage => _options.ServeL1DuringOutage && _log.InOutage;

    /// <summary>The item's CAS token without its value (an L1 copy's check); 0 on a miss, null when its server failed.</summary>
    private async Task<ulong?> CheckedCasAsync(string key, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = _engine.Key(key);
        try
        {
            return await _engine.ExecuteAsync(encoded, new CasRequest(encoded, _engine.Wins), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return null;
        }
    }

    private void StoreLocal<TState, T>(Call<TState, T> call, Made<T> made, long readAt)
    {
        if (call.Entry.LocalExpiration <= TimeSpan.Zero || made.Envelope is null || !Fits(made.Envelope))
        {
            return;
        }

        // A copy ends when memcached's item does (issue 44): memcached counts a TTL in whole seconds of its own clock, so
        // an item read with t seconds left may expire up to a second sooner, and a copy of it lives at most t - 1.
        double localMilliseconds = call.Entry.LocalExpiration.TotalMilliseconds;
        if (made.Ttl >= 0)
        {
            localMilliseconds = Math.Min(localMilliseconds, (made.Ttl - 1) * 1000.0);
            if (localMilliseconds <= 0)
            {
                return;
            }
        }

        object? shared = ImmutableType<T>.Value ? made.Value : null;
        long expiresAt = Environment.TickCount64 + (long)Math.Min(localMilliseconds, int.MaxValue);
        _local.Set(call.Key, new LocalEntry(made.Envelope, shared, made.Cas, expiresAt, made.FromGutter, readAt), readAt);
    }

    /// <summary>Drops, deletes and logs a key; true when memcached deleted it (logged or not).</summary>
    private async Task<bool> RemoveOneAsync(string key, CancellationToken cancellationToken)
    {
        _local.Drop(key);
        (bool deleted, bool gutter) = await DeleteBothAsync(key, cancellationToken).ConfigureAwait(false);
        bool logged = await AppendAsync(KindOf(deleted, gutter), key, cancellationToken).ConfigureAwait(false) is not null;
        _local.Drop(key);

        if (!deleted || !logged)
        {
            _pending.Add(tag: false, key, logged: !deleted && logged);
        }

        return deleted;
    }

    /// <summary>Makes a removal by tag, or a pending change again (<see cref="PendingChanges"/>): a key deleted and logged
    /// (not logged when the delete failed: the next retry would log it again), or a tag logged; true when memcached took
    /// it. A first removal by key logs even when its delete failed (<see cref="RemoveOneAsync"/>), so that other servers'
    /// L1 copies go at once; such a <paramref name="logged"/> change is made again as the delete alone.</summary>
    private async Task<bool> MakeChangeAsync(bool tag, string name, bool logged, CancellationToken cancellationToken)
    {
        byte kind = (byte)'t';
        if (!tag)
        {
            if (logged)
            {
                // Its log item dropped every L1 copy already, and its gutter copy was deleted then (or is named, and
                // deleted on its own: RetryGutterAsync; deleting it here again would delete every fill the gutter made
                // for the key since): the entry's delete was what memcached had not taken.
                return await TryDeleteAsync(name, cancellationToken).ConfigureAwait(false);
            }

            (bool home, bool gutter) = await DeleteBothAsync(name, cancellationToken).ConfigureAwait(false);
            if (!home)
            {
                return false;
            }

            kind = KindOf(home, gutter);
        }

        // A tag's removal made again is not announced again without a sequence (every server was told the first time).
        if (await AppendAsync(kind, name, cancellationToken, announce: !logged).ConfigureAwait(false) is not ulong n)
        {
            return false;
        }

        if (tag)
        {
            _tags.Resolve(name, n);
        }
        else
        {
            _local.Drop(name);
        }

        return true;
    }

    /// <summary>After each complete poll of the log (on the poller's thread): the pending changes, made again.</summary>
    private async Task RetryPendingAsync(CancellationToken cancellationToken)
    {
        await RetryGutterAsync(cancellationToken).ConfigureAwait(false);
        if (_pending.IsEmpty)
        {
            return;
        }

        int made = await _pending.RetryAsync(MakeChangeAsync, cancellationToken).ConfigureAwait(false);
        if (made > 0)
        {
            LogChangesMadeAgain(_logger, made);
        }
    }

    /// <summary>Appends to the log (<see cref="InvalidationLog.AppendAsync"/>); null when memcached could not be written
    /// (logged: other servers' L1 then keep the old value until their local expiration).</summary>
    private async Task<ulong?> AppendAsync(byte kind, string name, CancellationToken cancellationToken, bool announce = true)
    {
        try
        {
            ulong? n = await _log.AppendAsync(kind, name, announce, cancellationToken).ConfigureAwait(false);
            if (n is not null)
            {
                return n;
            }
        }
        catch (MemcachedException ex)
        {
            LogWriteFailed(_logger, "append to the invalidation log", ex);
            return null;
        }

        LogWriteFailed(_logger, "append to the invalidation log", null);
        return null;
    }

    /// <summary>Stores an envelope at L2; false (logged) when memcached did not take it.</summary>
    private async Task<bool> StoreAsync(string key, byte[] envelope, TimeSpan expiration, CancellationToken cancellationToken)
    {
        try
        {
            CacheItem item = _engine.Transcoder.Serialize(envelope);
            MemcachedStoreResult result = await _engine.StoreAsync(StoreMode.Set, key, item, expiration, 0, cancellationToken).ConfigureAwait(false);
            if (result == MemcachedStoreResult.Stored)
            {
                return true;
            }

            LogWriteFailed(_logger, "store", null);
            return false;
        }
        catch (MemcachedException ex)
        {
            LogWriteFailed(_logger, "store", ex);
            return false;
        }
    }

    [LoggerMessage(EventId = 42, Level = LogLevel.Warning, Message = "memcached HybridCache: a key of {Length} characters is longer than MaximumKeyLength ({Limit}): such calls run the factory and cache nothing. Logged once")]
    private static partial void LogKeyNotCached(ILogger logger, int length, int limit);

    [LoggerMessage(EventId = 43, Level = LogLevel.Warning, Message = "memcached HybridCache: a {Operation} failed; the change is made again as soon as memcached takes it, and until then other servers may still read the old value")]
    private static partial void LogWriteFailed(ILogger logger, string operation, Exception? exception);

    [LoggerMessage(EventId = 46, Level = LogLevel.Information, Message = "memcached HybridCache: {Count} changes memcached had not taken were made again")]
    private static partial void LogChangesMadeAgain(ILogger logger, int count);

    /// <summary>One call's resolved entry options.</summary>
    private sealed record Entry(TimeSpan Expiration, TimeSpan LocalExpiration, HybridCacheEntryFlags Flags, EntryPolicy Lease);

    /// <summary>A value and the envelope it came from (null when it was not cached), with the CAS token of the item it
    /// was read from (0 when unknown), that item's remaining TTL in seconds (-1: none, or a value made here, whose
    /// local expiration is already within its own), and whether that item was the key's gutter copy.</summary>
    private sealed record Made<T>(T Value, HybridEnvelope? Envelope, ulong Cas, long Ttl = -1, bool FromGutter = false);

    /// <summary>What one call works with.</summary>
    private sealed record Call<TState, T>(MemcachedHybridCache Cache, string Key, TState State, Func<TState, CancellationToken, ValueTask<T>> Factory, Entry Entry, string[] Tags, HybridSerializers.Codec<T> Codec)
    {
        internal bool Has(HybridCacheEntryFlags flag) => (Entry.Flags & flag) == flag;
    }
}
