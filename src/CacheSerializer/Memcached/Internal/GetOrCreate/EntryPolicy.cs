using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>The resolved <see cref="GetOrCreateOptions"/> of one call, and the TTLs they become on the wire.</summary>
internal sealed class EntryPolicy
{
    private EntryPolicy(TimeSpan expiration, double earlyRefresh, TimeSpan staleWhileRevalidate, TimeSpan lockTimeout)
    {
        Expiration = expiration;
        EarlyRefresh = earlyRefresh;
        StaleWhileRevalidate = staleWhileRevalidate;
        LockTimeout = lockTimeout;

        // The entry lives Expiration + StaleWhileRevalidate in memcached; one get wins (R) once less than the early
        // refresh part of Expiration plus the stale window is left. R reads its token as a relative TTL only up to 30
        // days (memcached's realtime()), so the window is capped there.
        StoredFor = expiration > TimeSpan.MaxValue - staleWhileRevalidate ? TimeSpan.MaxValue : expiration + staleWhileRevalidate;
        double recache = Math.Ceiling((earlyRefresh * expiration.TotalSeconds) + staleWhileRevalidate.TotalSeconds);
        RecacheSeconds = (long)Math.Min(recache, Protocol.Expiration.MaxRelativeSeconds);

        // memcached's clock ticks once a second, so a TTL of n seconds lasts between n - 1 and n: one more second keeps a
        // placeholder at least as long as its waiters wait.
        LockSeconds = (long)Math.Ceiling(lockTimeout.TotalSeconds) + 1;
    }

    internal TimeSpan Expiration { get; }

    internal double EarlyRefresh { get; }

    internal TimeSpan StaleWhileRevalidate { get; }

    internal TimeSpan LockTimeout { get; }

    /// <summary>Gets how long a created value is kept in memcached: fresh, then stale.</summary>
    internal TimeSpan StoredFor { get; }

    /// <summary>Gets the <c>R</c> token: a hit with fewer seconds left wins the refresh; 0 for none.</summary>
    internal long RecacheSeconds { get; }

    /// <summary>Gets the <c>N</c> token: the TTL of the placeholder a miss creates.</summary>
    internal long LockSeconds { get; }

    /// <summary>Gets a value indicating whether a stale value (expired into its window, or invalidated) is returned at once.</summary>
    internal bool ServesStale => StaleWhileRevalidate > TimeSpan.Zero;

    /// <summary>Gets the TTL <see cref="MemcachedClient.InvalidateAsync"/> gives a stale item: the stale window, or without
    /// one, as long as a placeholder lives (long enough for the one caller who recreates it).</summary>
    internal long InvalidatedSeconds => ServesStale ? (long)Math.Ceiling(StaleWhileRevalidate.TotalSeconds) : LockSeconds;

    /// <summary>Resolves the client's defaults (already validated): null properties take the built-in values.</summary>
    internal static EntryPolicy FromDefaults(GetOrCreateOptions defaults) => new(
        defaults.Expiration ?? GetOrCreateOptions.DefaultExpiration,
        defaults.EarlyRefresh ?? 0,
        defaults.StaleWhileRevalidate ?? TimeSpan.Zero,
        defaults.LockTimeout ?? GetOrCreateOptions.DefaultLockTimeout);

    /// <summary>Resolves one call's options over the client's defaults.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A property is out of range; the message names it and the fix.</exception>
    internal static EntryPolicy Resolve(GetOrCreateOptions? options, EntryPolicy defaults)
    {
        if (options is null)
        {
            return defaults;
        }

        if (options.Problems() is [var (property, problem), ..])
        {
            throw new ArgumentOutOfRangeException(nameof(options), $"GetOrCreateOptions.{property} {problem}.");
        }

        return new EntryPolicy(
            options.Expiration ?? defaults.Expiration,
            options.EarlyRefresh ?? defaults.EarlyRefresh,
            options.StaleWhileRevalidate ?? defaults.StaleWhileRevalidate,
            options.LockTimeout ?? defaults.LockTimeout);
    }
}
