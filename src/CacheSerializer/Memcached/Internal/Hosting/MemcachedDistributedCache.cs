using System.Buffers.Binary;

using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Caching.Distributed;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary><see cref="IDistributedCache"/> over a client's engine: the package's own entry, or EnyimMemcachedCore's
/// while the client is in the migration phase (<see cref="ClientSettings.MigrationPhase"/>); it reads both.</summary>
/// <remarks>
/// <para>The own entry is one memcached item with flags <see cref="EntryFlags"/> and a 12-byte header before the caller's
/// bytes: the absolute expiration (Unix milliseconds, little-endian int64, 0 for none) and the sliding window (seconds,
/// little-endian int32, 0 for none). The item's TTL is the sliding window capped by the absolute expiration. A read is
/// one <c>mg v f t</c>; when the entry slides, a touch (<c>mg T</c>) moves its TTL forward, unless the remaining TTL
/// is already within a tenth of the window. So a read costs at most two commands and there is no companion key.</para>
/// <para>In the migration phase an entry is written as EnyimMemcachedCore writes it (<see cref="EnyimDistributedEntry"/>),
/// so its web servers, still sharing the cache, read the sessions the new ones write. Such an entry (flags 0xFA52) is
/// read in either phase with its companion's window: a read gets the companion too, and touches each of the two items
/// whose TTL is more than a tenth of the window short of it, where EnyimMemcachedCore gets both again and replaces them.
/// A touch never writes an older value over a newer one, as its get-then-replace can.</para>
/// </remarks>
internal sealed class MemcachedDistributedCache : IDistributedCache
{
    /// <summary>Marks items written by this class (a value EnyimMemcachedCore's transcoder never uses).</summary>
    internal const uint EntryFlags = 0xDC01;
    internal const int HeaderLength = 12;

    private readonly MemcachedEngine _engine;
    private readonly TimeProvider _time;
    private readonly bool _writesEnyimEntries;

    internal MemcachedDistributedCache(MemcachedEngine engine, TimeProvider? time = null)
    {
        _engine = engine;
        _time = time ?? TimeProvider.System;
        _writesEnyimEntries = engine.Settings.MigrationPhase;
    }

    public byte[]? Get(string key) => SyncCall.Run(() => GetAsync(key));

    public Task<byte[]?> GetAsync(string key, CancellationToken token = default) => ReadAsync(key, returnValue: true, token);

    public void Refresh(string key) => SyncCall.Run(() => RefreshAsync(key));

    public Task RefreshAsync(string key, CancellationToken token = default) => ReadAsync(key, returnValue: false, token);

    public void Remove(string key) => SyncCall.Run(() => RemoveAsync(key));

    /// <summary>Deletes the entry; in the migration phase its companion too, as EnyimMemcachedCore does. After the flip a
    /// companion left by an entry written before it expires with its window, and is read only beside a 0xFA52 entry.</summary>
    public Task RemoveAsync(string key, CancellationToken token = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        return _writesEnyimEntries
            ? Task.WhenAll(_engine.DeleteAsync(key, token), _engine.DeleteAsync(EnyimDistributedEntry.CompanionKey(key), token))
            : _engine.DeleteAsync(key, token);
    }

    public void Set(string key, byte[] value, DistributedCacheEntryOptions options) => SyncCall.Run(() => SetAsync(key, value, options));

    public Task SetAsync(string key, byte[] value, DistributedCacheEntryOptions options, CancellationToken token = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(options);
        DateTimeOffset now = _time.GetUtcNow();
        DateTimeOffset? absolute = options.AbsoluteExpiration;
        if (options.AbsoluteExpirationRelativeToNow is TimeSpan relative)
        {
            if (relative <= TimeSpan.Zero)
            {
                throw new ArgumentOutOfRangeException(nameof(options), relative, "The relative expiration value must be positive.");
            }

            // TimeSpan.MaxValue means "as late as possible", not an overflow.
            absolute = relative < DateTimeOffset.MaxValue - now ? now + relative : DateTimeOffset.MaxValue;
        }

        if (absolute is DateTimeOffset at && at <= now)
        {
            throw new ArgumentOutOfRangeException(nameof(options), at, "The absolute expiration value must be in the future.");
        }

        TimeSpan? sliding = options.SlidingExpiration;
        if (sliding is TimeSpan window && window <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(options), window, "The sliding expiration value must be positive.");
        }

        int slidingSeconds = sliding is TimeSpan s ? (int)Math.Min(int.MaxValue, Math.Ceiling(s.TotalSeconds)) : 0;
        long absoluteMs = absolute?.ToUnixTimeMilliseconds() ?? 0;
        TimeSpan? ttl = Ttl(absoluteMs, slidingSeconds, now);
        if (_writesEnyimEntries)
        {
            return SetEnyimEntryAsync(key, value, sliding, ttl, token);
        }

        byte[] payload = new byte[HeaderLength + value.Length];
        BinaryPrimitives.WriteInt64LittleEndian(payload, absoluteMs);
        BinaryPrimitives.WriteInt32LittleEndian(payload.AsSpan(8), slidingSeconds);
        value.CopyTo(payload, HeaderLength);

        return _engine.StoreAsync(StoreMode.Set, key, new CacheItem(EntryFlags, payload), ttl, 0, token);
    }

    /// <summary>
    /// Writes EnyimMemcachedCore's entry: the bytes under 0xFA52 with the TTL the own entry would get, and the companion
    /// with the window and the same TTL. Where EnyimMemcachedCore differs, it is lossy: it <em>adds</em> the companion,
    /// so a set never moves an existing companion's TTL or window, and an entry set again and again outlives its
    /// companion and then never slides; it ignores an absolute expiration beside a window; and a set without a window
    /// leaves an earlier companion, which makes its refresh slide an entry that was meant not to. Here the companion is
    /// set, and deleted by a set without a window. Its old servers read all of it as they read their own.
    /// </summary>
    private Task SetEnyimEntryAsync(string key, byte[] value, TimeSpan? sliding, TimeSpan? ttl, CancellationToken token)
    {
        string companionKey = EnyimDistributedEntry.CompanionKey(key);
        Task entry = _engine.StoreAsync(StoreMode.Set, key, new CacheItem(EnyimDistributedEntry.Flags, value), ttl, 0, token);
        Task companion = sliding is TimeSpan window
            ? _engine.StoreAsync(StoreMode.Set, companionKey, EnyimDistributedEntry.Companion(window), ttl, 0, token)
            : _engine.DeleteAsync(companionKey, token);
        return Task.WhenAll(entry, companion);
    }

    /// <summary>The TTL an entry gets now: the sliding window capped by what is left until the absolute expiration.</summary>
    private static TimeSpan? Ttl(long absoluteMs, int slidingSeconds, DateTimeOffset now)
    {
        TimeSpan? untilAbsolute = absoluteMs == 0 ? null : DateTimeOffset.FromUnixTimeMilliseconds(absoluteMs) - now;
        TimeSpan? window = slidingSeconds == 0 ? null : TimeSpan.FromSeconds(slidingSeconds);
        if (untilAbsolute is TimeSpan a && window is TimeSpan w)
        {
            return a < w ? a : w;
        }

        return untilAbsolute ?? window;
    }

    private async Task<byte[]?> ReadAsync(string key, bool returnValue, CancellationToken token)
    {
        ArgumentNullException.ThrowIfNull(key);
        GetReply reply = await _engine.Reads.GetRawAsync(key, token, ttl: true, pooled: true).ConfigureAwait(false);
        if (!reply.Hit)
        {
            return null;
        }

        uint flags = reply.Item.Flags;
        bool own;
        long absoluteMs = 0;
        int slidingSeconds = 0;
        byte[]? value;
        try
        {
            ArraySegment<byte> data = reply.Item.Data;
            own = flags == EntryFlags && data.Count >= HeaderLength;
            if (own)
            {
                absoluteMs = BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(0, 8));
                slidingSeconds = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(8, 4));
            }

            value = returnValue ? data.AsSpan(own ? HeaderLength : 0).ToArray() : null;
        }
        finally
        {
            reply.Release(); // every byte kept was copied out
        }

        if (own)
        {
            return await SlideOwnEntryAsync(key, reply.Ttl, absoluteMs, slidingSeconds, token).ConfigureAwait(false) ? value : null;
        }

        if (flags == EnyimDistributedEntry.Flags)
        {
            await SlideEnyimEntryAsync(key, reply.Ttl, token).ConfigureAwait(false);
        }

        // Any other item was not written through IDistributedCache: its bytes as they are, with no expiration logic.
        return value;
    }

    /// <summary>Slides an own entry if it has a window; false when its absolute expiration has passed (a miss).</summary>
    private async Task<bool> SlideOwnEntryAsync(string key, long remainingTtl, long absoluteMs, int slidingSeconds, CancellationToken token)
    {
        DateTimeOffset now = _time.GetUtcNow();
        if (absoluteMs != 0 && now.ToUnixTimeMilliseconds() >= absoluteMs)
        {
            return false; // memcached's clock has one-second steps; the entry's own deadline is exact
        }

        if (slidingSeconds > 0)
        {
            TimeSpan ttl = Ttl(absoluteMs, slidingSeconds, now)!.Value;
            if (NeedsTouch(remainingTtl, ttl, now))
            {
                await _engine.TouchAsync(key, ttl, token).ConfigureAwait(false);
            }
        }

        return true;
    }

    /// <summary>Slides an EnyimMemcachedCore entry by its companion's window, as its refresh does (no companion: no
    /// slide), touching the entry and the companion rather than replacing them.</summary>
    private async Task SlideEnyimEntryAsync(string key, long remainingTtl, CancellationToken token)
    {
        string companionKey = EnyimDistributedEntry.CompanionKey(key);
        GetReply companion = await _engine.Reads.GetRawAsync(companionKey, token, ttl: true).ConfigureAwait(false);
        if (!companion.Hit || !EnyimDistributedEntry.TryReadWindow(companion.Item, out TimeSpan window))
        {
            return;
        }

        DateTimeOffset now = _time.GetUtcNow();
        Task entryTouch = NeedsTouch(remainingTtl, window, now) ? _engine.TouchAsync(key, window, token) : Task.CompletedTask;
        Task companionTouch = NeedsTouch(companion.Ttl, window, now) ? _engine.TouchAsync(companionKey, window, token) : Task.CompletedTask;
        await Task.WhenAll(entryTouch, companionTouch).ConfigureAwait(false);
    }

    /// <summary>
    /// Whether an item with <paramref name="remainingTtl"/> seconds left (-1: none) is touched to <paramref name="ttl"/>:
    /// unless its TTL is already within a tenth of it (whole seconds), so a hot key read many times a second costs one
    /// command per read, and an entry never lapses more than a tenth of its window early.
    /// </summary>
    private static bool NeedsTouch(long remainingTtl, TimeSpan ttl, DateTimeOffset now)
    {
        // memcached cannot hold a TTL past 2038-01-19 (Expiration): compare with the TTL a touch could set at most.
        long wanted = Math.Min((long)Math.Ceiling(ttl.TotalSeconds), Expiration.MaxAbsoluteSeconds - now.ToUnixTimeSeconds());
        return remainingTtl < 0 || wanted - remainingTtl > wanted / 10;
    }
}
