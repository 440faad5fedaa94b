using System.Buffers.Binary;

using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using Microsoft.Extensions.Caching.Distributed;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary><see cref="IDistributedCache"/> over a client's engine, with sliding expiration kept in the item itself.</summary>
/// <remarks>
/// An entry is one memcached item with flags <see cref="EntryFlags"/> and a 12-byte header before the caller's bytes:
/// the absolute expiration (Unix milliseconds, little-endian int64, 0 for none) and the sliding window (seconds,
/// little-endian int32, 0 for none). The item's TTL is the sliding window capped by the absolute expiration. A read is
/// one <c>mg v f t</c>; when the entry slides, a touch (<c>mg T</c>) moves its TTL forward, unless the remaining TTL
/// is already within a tenth of the window. So a read costs at most two commands and there is no companion key.
/// </remarks>
internal sealed class MemcachedDistributedCache : IDistributedCache
{
    /// <summary>Marks items written by this class (a value EnyimMemcachedCore's transcoder never uses).</summary>
    internal const uint EntryFlags = 0xDC01;
    internal const int HeaderLength = 12;

    private readonly MemcachedEngine _engine;
    private readonly TimeProvider _time;

    internal MemcachedDistributedCache(MemcachedEngine engine, TimeProvider? time = null)
    {
        _engine = engine;
        _time = time ?? TimeProvider.System;
    }

    public byte[]? Get(string key) => GetAsync(key).GetAwaiter().GetResult();

    public Task<byte[]?> GetAsync(string key, CancellationToken token = default) => ReadAsync(key, returnValue: true, token);

    public void Refresh(string key) => RefreshAsync(key).GetAwaiter().GetResult();

    public Task RefreshAsync(string key, CancellationToken token = default) => ReadAsync(key, returnValue: false, token);

    public void Remove(string key) => RemoveAsync(key).GetAwaiter().GetResult();

    public Task RemoveAsync(string key, CancellationToken token = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        return _engine.DeleteAsync(key, token);
    }

    public void Set(string key, byte[] value, DistributedCacheEntryOptions options) => SetAsync(key, value, options).GetAwaiter().GetResult();

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
        byte[] payload = new byte[HeaderLength + value.Length];
        BinaryPrimitives.WriteInt64LittleEndian(payload, absoluteMs);
        BinaryPrimitives.WriteInt32LittleEndian(payload.AsSpan(8), slidingSeconds);
        value.CopyTo(payload, HeaderLength);

        return _engine.StoreAsync(StoreMode.Set, key, new CacheItem(EntryFlags, payload), Ttl(absoluteMs, slidingSeconds, now), 0, token);
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

        try
        {
            return await ReadEntryAsync(key, reply, returnValue, token).ConfigureAwait(false);
        }
        finally
        {
            reply.Release(); // every byte kept was copied out
        }
    }

    private async Task<byte[]?> ReadEntryAsync(string key, GetReply reply, bool returnValue, CancellationToken token)
    {
        ArraySegment<byte> data = reply.Item.Data;
        if (reply.Item.Flags != EntryFlags || data.Count < HeaderLength)
        {
            // Not written through IDistributedCache: hand back its bytes as they are, with no expiration logic.
            return returnValue ? data.AsSpan().ToArray() : null;
        }

        long absoluteMs = BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(0, 8));
        int slidingSeconds = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(8, 4));
        DateTimeOffset now = _time.GetUtcNow();
        if (absoluteMs != 0 && now.ToUnixTimeMilliseconds() >= absoluteMs)
        {
            return null; // memcached's clock has one-second steps; the entry's own deadline is exact
        }

        if (slidingSeconds > 0)
        {
            TimeSpan ttl = Ttl(absoluteMs, slidingSeconds, now)!.Value;
            // memcached cannot hold a TTL past 2038-01-19 (Expiration): compare with the TTL a touch could set at most.
            long wanted = Math.Min((long)Math.Ceiling(ttl.TotalSeconds), Expiration.MaxAbsoluteSeconds - now.ToUnixTimeSeconds());
            // Touch unless the TTL is already within a tenth of the window (whole seconds): a hot key read many times a
            // second then costs one command per read, and an entry never lapses more than a tenth of its window early.
            if (reply.Ttl < 0 || wanted - reply.Ttl > wanted / 10)
            {
                await _engine.TouchAsync(key, ttl, token).ConfigureAwait(false);
            }
        }

        return returnValue ? data.AsSpan(HeaderLength).ToArray() : null;
    }
}
