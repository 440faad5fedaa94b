namespace CacheSerializer.Enyim.Internal;

/// <summary>EnyimMemcachedCore's expiration arguments (MemcachedClient.cs, GetExpiration, e383c4c) as the core client's
/// <see cref="TimeSpan"/>: null for never.</summary>
internal static class EnyimExpiration
{
    private static readonly DateTime UnixEpoch = new(1970, 1, 1);

    /// <summary>Seconds as EnyimMemcachedCore's <c>TimeSpan.FromSeconds(cacheSeconds)</c> overloads pass them on.</summary>
    internal static TimeSpan? FromSeconds(double seconds) => From(TimeSpan.FromSeconds(seconds));

    /// <summary>Zero or <see cref="TimeSpan.MaxValue"/>: never. EnyimMemcachedCore sends <c>(uint)validFor.TotalSeconds</c>,
    /// whole seconds rounded down, so a span under a second never expires there, and here too; a negative span casts
    /// to 0 (.NET's saturating conversion) and never expires as well.</summary>
    internal static TimeSpan? From(TimeSpan validFor)
    {
        if (validFor == TimeSpan.MaxValue)
        {
            return null;
        }

        double seconds = Math.Floor(validFor.TotalSeconds);
        return seconds <= 0 ? null : TimeSpan.FromSeconds(seconds);
    }

    /// <summary><see cref="DateTime.MaxValue"/>: never; otherwise the time left until <paramref name="expiresAt"/> (an
    /// unspecified kind is local time, as <c>ToUniversalTime</c> reads it there), in whole seconds.</summary>
    /// <remarks>EnyimMemcachedCore sends the Unix time itself; for an instant already past memcached then stores the item
    /// expired. The core sends no past time, so such an item lives 1 s here (docs/migrating-from-enyim.md, "Methods").</remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiresAt"/> is before 1970, as there.</exception>
    internal static TimeSpan? From(DateTime expiresAt)
    {
        if (expiresAt < UnixEpoch)
        {
            throw new ArgumentOutOfRangeException(nameof(expiresAt), "expiresAt must be >= 1970/1/1");
        }

        if (expiresAt == DateTime.MaxValue)
        {
            return null;
        }

        double seconds = Math.Floor((expiresAt.ToUniversalTime() - DateTime.UtcNow).TotalSeconds);
        return TimeSpan.FromSeconds(Math.Max(1, seconds));
    }
}
