using System.Globalization;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Distributed;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>
/// An old web server's <c>IDistributedCache</c>: EnyimMemcachedCore's <c>MemcachedClient</c>, which cannot be restored
/// here, rebuilt step by step from its source (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/DistributedCache.cs, and the calls it makes in src/Enyim.Caching/MemcachedClient.cs) over this
/// package's client bound from an <c>enyimMemcached</c> section, which places keys as EnyimMemcachedCore does and writes
/// a byte[] and a string as its DefaultTranscoder does (raw under 0xFA52; UTF-8 under 0x0112), checked by
/// <c>EnyimSectionClient_ByteArrayAndString_WrittenAsDefaultTranscoderWritesThem</c>.
/// </summary>
/// <remarks>
/// What differs from EnyimMemcachedCore: the protocol (meta here, binary there; memcached stores the same key, flags,
/// bytes and TTL either way), and an absolute expiration, which it sends as a Unix time and this client as the seconds
/// left until it (the same instant to memcached's one-second clock). An item its DefaultTranscoder cannot read as a
/// byte[] (flags 0xDC01, the package's own entry) makes its <c>Get&lt;byte[]&gt;</c> catch the exception and return
/// null; the client here reads it as an unreadable item, a miss: null too.
/// </remarks>
internal sealed class EnyimDistributedCacheEmulation(IMemcachedClient client) : IDistributedCache
{
    /// <summary>EnyimMemcachedCore's <c>MaxSeconds</c> (MemcachedClient.cs): a TTL up to 30 days is sent as seconds.</summary>
    private static readonly TimeSpan MaxRelative = TimeSpan.FromDays(30);

    public byte[]? Get(string key) => GetAsync(key).GetAwaiter().GetResult();

    /// <summary>Its <c>IDistributedCache.GetAsync</c>: <c>GetValueAsync&lt;byte[]&gt;</c>, then a refresh on a hit.</summary>
    public async Task<byte[]?> GetAsync(string key, CancellationToken token = default)
    {
        byte[]? value = await client.GetValueAsync<byte[]>(key, CancellationToken.None);
        if (value is not null)
        {
            await RefreshAsync(key, token);
        }

        return value;
    }

    public void Refresh(string key) => RefreshAsync(key).GetAwaiter().GetResult();

    /// <summary>Its <c>RefreshAsync</c>: the companion's window; if it parses, the entry read again and both replaced
    /// with that window.</summary>
    public async Task RefreshAsync(string key, CancellationToken token = default)
    {
        string companion = Companion(key);
        string? window = await client.GetValueAsync<string>(companion, CancellationToken.None);
        if (!string.IsNullOrEmpty(window) && TimeSpan.TryParse(window, CultureInfo.InvariantCulture, out TimeSpan sliding))
        {
            byte[]? value = await client.GetValueAsync<byte[]>(key, CancellationToken.None);
            if (value is not null)
            {
                await client.ReplaceAsync(key, value, ValidFor(sliding), CancellationToken.None);
                await client.ReplaceAsync(companion, window, ValidFor(sliding), CancellationToken.None);
            }
        }
    }

    public void Remove(string key) => RemoveAsync(key).GetAwaiter().GetResult();

    /// <summary>Its <c>RemoveAsync</c>: the entry, then the companion.</summary>
    public async Task RemoveAsync(string key, CancellationToken token = default)
    {
        await client.DeleteAsync(key, CancellationToken.None);
        await client.DeleteAsync(Companion(key), CancellationToken.None);
    }

    public void Set(string key, byte[] value, DistributedCacheEntryOptions options) => SetAsync(key, value, options).GetAwaiter().GetResult();

    /// <summary>Its <c>SetAsync</c>: without any expiration (<c>HasSlidingExpiration</c> false) the bytes with none;
    /// otherwise with <c>GetExpiration(options)</c> (the window if there is one, else the absolute expiration), then
    /// the companion <em>added</em> with the window as <c>TimeSpan.ToString()</c> writes it.</summary>
    public async Task SetAsync(string key, byte[] value, DistributedCacheEntryOptions options, CancellationToken token = default)
    {
        if (!HasSlidingExpiration(options))
        {
            await client.SetAsync(key, value, null, CancellationToken.None);
            return;
        }

        await client.SetAsync(key, value, Expiration(options), CancellationToken.None);
        if (options.SlidingExpiration is TimeSpan sliding)
        {
            await client.AddAsync(Companion(key), sliding.ToString(), ValidFor(sliding), CancellationToken.None);
        }
    }

    /// <summary>Its <c>GetSlidingExpirationKey</c>.</summary>
    internal static string Companion(string key) => $"{key}-sliding-expiration";

    /// <summary>Its <c>HasSlidingExpiration</c>: false when no window (or a zero one) and no absolute expiration is given.</summary>
    private static bool HasSlidingExpiration(DistributedCacheEntryOptions options) =>
        options.SlidingExpiration is TimeSpan sliding && sliding != TimeSpan.Zero
        || options.AbsoluteExpiration.HasValue
        || options.AbsoluteExpirationRelativeToNow.HasValue;

    /// <summary>Its <c>GetExpiration(DistributedCacheEntryOptions)</c>: the window first, then the relative, then the
    /// absolute expiration (the absolute one is ignored beside a window).</summary>
    private static TimeSpan? Expiration(DistributedCacheEntryOptions options) =>
        options.SlidingExpiration is TimeSpan sliding ? ValidFor(sliding)
        : options.AbsoluteExpirationRelativeToNow is TimeSpan relative ? relative
        : options.AbsoluteExpiration!.Value - DateTimeOffset.UtcNow;

    /// <summary>Its <c>GetExpiration(validFor)</c>: zero or <see cref="TimeSpan.MaxValue"/> never expires; up to 30 days
    /// the whole seconds (<c>(uint)TotalSeconds</c> truncates, so under a second is never); beyond, an instant that far
    /// from now, which this client sends as memcached's absolute time too.</summary>
    private static TimeSpan? ValidFor(TimeSpan validFor)
    {
        if (validFor == TimeSpan.Zero || validFor == TimeSpan.MaxValue)
        {
            return null;
        }

        return validFor <= MaxRelative ? TimeSpan.FromSeconds(Math.Floor(validFor.TotalSeconds)) : validFor;
    }
}
