using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached;

/// <summary>How <see cref="IMemcachedClient.GetOrCreateAsync{T}"/> keeps an entry: its expiration, early refresh,
/// stale-while-revalidate window and how long a caller waits for another caller's factory.</summary>
/// <remarks>
/// <para>Pass one per call, or set the client's defaults in <see cref="MemcachedClientOptions.GetOrCreate"/> (bindable
/// from configuration); a property left null takes the client's default, and a default left null the value stated in
/// its <c>&lt;value&gt;</c>. The options are read once, when the call starts. Callers that join a call already
/// running for the same key (in this process) share that call's factory and options.</para>
/// <para>memcached counts TTLs in whole seconds: every duration here is rounded up to a second when it is sent.</para>
/// </remarks>
public sealed class GetOrCreateOptions
{
    /// <summary>The built-in <see cref="Expiration"/>.</summary>
    internal static readonly TimeSpan DefaultExpiration = TimeSpan.FromMinutes(5);

    /// <summary>The built-in <see cref="LockTimeout"/>.</summary>
    internal static readonly TimeSpan DefaultLockTimeout = TimeSpan.FromSeconds(10);

    /// <summary>memcached reads a TTL above 30 days as an absolute time; the windows sent as TTLs stay below it.</summary>
    internal static readonly TimeSpan MaxWindow = TimeSpan.FromDays(30);

    /// <summary>Gets or sets how long a created value is fresh.</summary>
    /// <value>Null: the client's default, else 5 minutes. Must be more than zero; past 2038-01-19 it is capped as every
    /// expiration is (docs/client.md, "Expirations").</value>
    public TimeSpan? Expiration { get; set; }

    /// <summary>Gets or sets the fraction of <see cref="Expiration"/> before its end from which one caller in the whole
    /// farm refreshes the value in the background while every caller keeps getting the current one (memcached's
    /// <c>mg ... R</c>). 0.1 refreshes a 5-minute entry once it has less than 30 seconds left.</summary>
    /// <value>Null: the client's default, else 0 (no early refresh). From 0 to below 1.</value>
    public double? EarlyRefresh { get; set; }

    /// <summary>Gets or sets how long a value is still returned at once after it expired, or after
    /// <see cref="IMemcachedClient.InvalidateAsync"/> marked it stale, while one caller in the farm refreshes it in the
    /// background. The entry is stored for <see cref="Expiration"/> plus this window.</summary>
    /// <value>Null: the client's default, else zero: an expired value is never returned, and after an invalidation one
    /// caller creates the value while the others wait for it. At most 30 days.</value>
    public TimeSpan? StaleWhileRevalidate { get; set; }

    /// <summary>Gets or sets how long a caller waits for the factory another caller is running for the same key (in this
    /// process or on another server) before it runs the factory itself. It is also the life of the placeholder a miss
    /// leaves in memcached (rounded up to whole seconds, plus one), so a caller that crashed holding the win delays the
    /// others by at most this long. Set it above the factory's slowest run.</summary>
    /// <value>Null: the client's default, else 10 seconds. More than zero and at most one day.</value>
    public TimeSpan? LockTimeout { get; set; }

    /// <summary>Finds every value out of range, as (property, problem and fix).</summary>
    internal List<(string Property, string Problem)> Problems()
    {
        var problems = new List<(string, string)>();
        if (Expiration is TimeSpan expiration && expiration <= TimeSpan.Zero)
        {
            problems.Add((nameof(Expiration), $"is {expiration}; it must be more than zero (leave it null for the default)"));
        }

        if (EarlyRefresh is double fraction && !(fraction >= 0 && fraction < 1))
        {
            problems.Add((nameof(EarlyRefresh), $"is {fraction.ToString(System.Globalization.CultureInfo.InvariantCulture)}; it must be at least 0 and below 1 (0.1 refreshes in the last tenth of the expiration; 0 turns early refresh off)"));
        }

        if (StaleWhileRevalidate is TimeSpan window && (window < TimeSpan.Zero || window > MaxWindow))
        {
            problems.Add((nameof(StaleWhileRevalidate), $"is {window}; it must be from zero to 30 days"));
        }

        if (LockTimeout is TimeSpan lockTimeout && (lockTimeout <= TimeSpan.Zero || lockTimeout > TimeSpan.FromDays(1)))
        {
            problems.Add((nameof(LockTimeout), $"is {lockTimeout}; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:10)"));
        }

        return problems;
    }

    /// <summary>Describes the options; a property left null is shown as <c>(default)</c>.</summary>
    /// <returns>The options as <c>Name = value</c> pairs.</returns>
    public override string ToString() => string.Create(
        System.Globalization.CultureInfo.InvariantCulture,
        $"{{ Expiration = {Shown(Expiration)}, EarlyRefresh = {Shown(EarlyRefresh)}, StaleWhileRevalidate = {Shown(StaleWhileRevalidate)}, LockTimeout = {Shown(LockTimeout)} }}");

    private static string Shown<T>(T? value)
        where T : struct, IFormattable => value?.ToString(null, System.Globalization.CultureInfo.InvariantCulture) ?? "(default)";
}
