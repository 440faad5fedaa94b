namespace CacheSerializer.Memcached.Internal;

/// <summary>Turns a .NET expiration into memcached's TTL token.</summary>
internal static class Expiration
{
    /// <summary>memcached reads a TTL above 30 days as a Unix time, not an offset (doc/protocol.txt, "Expiration times").</summary>
    internal const long MaxRelativeSeconds = 60 * 60 * 24 * 30;

    /// <summary>Null or zero: never expires (0). Otherwise whole seconds rounded up; beyond 30 days an absolute Unix time.</summary>
    internal static long ToTtl(TimeSpan? expiration, string parameterName = "expiration")
    {
        if (expiration is not TimeSpan value || value == TimeSpan.Zero)
        {
            return 0;
        }

        if (value < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(parameterName, value, "The expiration must be positive, or null/zero for an item that never expires.");
        }

        long seconds = (long)Math.Ceiling(value.TotalSeconds);
        return seconds <= MaxRelativeSeconds ? seconds : DateTimeOffset.UtcNow.ToUnixTimeSeconds() + seconds;
    }
}
