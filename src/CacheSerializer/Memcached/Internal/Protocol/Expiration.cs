namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>Turns a .NET expiration into memcached's TTL token.</summary>
/// <remarks>
/// memcached reads a TTL above 30 days as an absolute Unix time, and parses it as a signed 32-bit number: memcached
/// 1.6.18 answers <c>HD</c> to <c>T2147483648</c> and the item is gone at once (checked against the real server). So an
/// expiration whose absolute time would fall after 2038-01-19T03:14:07Z (<see cref="MaxAbsoluteSeconds"/>) is sent as
/// that instant: the item may expire earlier than asked (as a cache may always drop an item), never later, and never
/// at once.
/// </remarks>
internal static class Expiration
{
    /// <summary>memcached reads a TTL above 30 days as a Unix time, not an offset (doc/protocol.txt, "Expiration times").</summary>
    internal const long MaxRelativeSeconds = 60 * 60 * 24 * 30;

    /// <summary>The TTL argument that means "none": no <c>T</c> flag (no touch, keep the item's TTL), no <c>N</c>.</summary>
    internal const long None = -1;

    /// <summary>The last Unix time memcached can hold: <see cref="int.MaxValue"/>, 2038-01-19T03:14:07Z.</summary>
    internal const long MaxAbsoluteSeconds = int.MaxValue;

    /// <summary>Null or zero: never expires (0). Otherwise whole seconds rounded up; beyond 30 days an absolute Unix time,
    /// capped at <see cref="MaxAbsoluteSeconds"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The expiration is negative.</exception>
    internal static long ToTtl(TimeSpan? expiration, string parameterName = "expiration") =>
        ToTtl(expiration, DateTimeOffset.UtcNow.ToUnixTimeSeconds(), parameterName);

    internal static long ToTtl(TimeSpan? expiration, long nowUnixSeconds, string parameterName = "expiration")
    {
        if (expiration is not TimeSpan value || value == TimeSpan.Zero)
        {
            return 0;
        }

        if (value < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(parameterName, value, "The expiration must be positive, or null/zero for an item that never expires.");
        }

        // TimeSpan.MaxValue is about 29,000 years: its seconds fit a long, and so does their sum with any Unix time of this era.
        long seconds = (long)Math.Ceiling(value.TotalSeconds);
        return seconds <= MaxRelativeSeconds ? seconds : Math.Min(nowUnixSeconds + seconds, MaxAbsoluteSeconds);
    }
}
