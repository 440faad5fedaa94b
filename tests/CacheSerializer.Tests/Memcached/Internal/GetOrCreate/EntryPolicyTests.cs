using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.GetOrCreate;

public class EntryPolicyTests
{
    private static readonly EntryPolicy Defaults = EntryPolicy.FromDefaults(new GetOrCreateOptions());

    [Fact]
    public void FromDefaults_NothingSet_BuiltInValues()
    {
        Assert.Equal((TimeSpan.FromMinutes(5), 0.0, TimeSpan.Zero, TimeSpan.FromSeconds(10)),
            (Defaults.Expiration, Defaults.EarlyRefresh, Defaults.StaleWhileRevalidate, Defaults.LockTimeout));
        Assert.Equal((TimeSpan.FromMinutes(5), 0L, 11L, false, 11L),
            (Defaults.StoredFor, Defaults.RecacheSeconds, Defaults.LockSeconds, Defaults.ServesStale, Defaults.InvalidatedSeconds));
    }

    [Fact]
    public void Resolve_EarlyRefreshAndStaleWindow_StoredForBothAndWinsOverBoth()
    {
        var options = new GetOrCreateOptions { EarlyRefresh = 0.1, StaleWhileRevalidate = TimeSpan.FromMinutes(1) };

        var policy = EntryPolicy.Resolve(options, Defaults);

        // Stored 5 + 1 minutes; R wins once less than 30 s of freshness (a tenth of 5 minutes) plus the 60 s window is left.
        Assert.Equal((TimeSpan.FromMinutes(6), 90L, true, 60L), (policy.StoredFor, policy.RecacheSeconds, policy.ServesStale, policy.InvalidatedSeconds));
    }

    [Fact]
    public void Resolve_NullProperties_TakeTheClientDefaults()
    {
        var client = EntryPolicy.FromDefaults(new GetOrCreateOptions { Expiration = TimeSpan.FromSeconds(30), LockTimeout = TimeSpan.FromMilliseconds(1500) });

        var policy = EntryPolicy.Resolve(new GetOrCreateOptions { EarlyRefresh = 0.5 }, client);

        Assert.Equal((TimeSpan.FromSeconds(30), 15L, 3L), (policy.Expiration, policy.RecacheSeconds, policy.LockSeconds));
    }

    [Fact]
    public void Resolve_Null_IsTheDefaultsThemselves()
    {
        Assert.Same(Defaults, EntryPolicy.Resolve(null, Defaults));
    }

    [Fact]
    public void Resolve_HugeWindows_CappedWhereMemcachedReadsTtlsAsRelative()
    {
        // memcached reads a TTL above 30 days as a Unix time; R is sent as at most 30 days, and StoredFor saturates.
        var options = new GetOrCreateOptions { Expiration = TimeSpan.MaxValue, EarlyRefresh = 0.5, StaleWhileRevalidate = TimeSpan.FromDays(30) };

        var policy = EntryPolicy.Resolve(options, Defaults);

        Assert.Equal((TimeSpan.MaxValue, 2_592_000L), (policy.StoredFor, policy.RecacheSeconds));
    }

    public static TheoryData<GetOrCreateOptions, string> Invalid => new()
    {
        { new GetOrCreateOptions { Expiration = TimeSpan.Zero }, "GetOrCreateOptions.Expiration is 00:00:00; it must be more than zero (leave it null for the default)." },
        { new GetOrCreateOptions { EarlyRefresh = 1 }, "GetOrCreateOptions.EarlyRefresh is 1; it must be at least 0 and below 1 (0.1 refreshes in the last tenth of the expiration; 0 turns early refresh off)." },
        { new GetOrCreateOptions { EarlyRefresh = double.NaN }, "GetOrCreateOptions.EarlyRefresh is NaN; it must be at least 0 and below 1 (0.1 refreshes in the last tenth of the expiration; 0 turns early refresh off)." },
        { new GetOrCreateOptions { StaleWhileRevalidate = TimeSpan.FromDays(31) }, "GetOrCreateOptions.StaleWhileRevalidate is 31.00:00:00; it must be from zero to 30 days." },
        { new GetOrCreateOptions { LockTimeout = TimeSpan.FromSeconds(-1) }, "GetOrCreateOptions.LockTimeout is -00:00:01; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:10)." },
    };

    [Theory]
    [MemberData(nameof(Invalid))]
    public void Resolve_OutOfRange_ThrowsNamingThePropertyAndTheFix(GetOrCreateOptions options, string message)
    {
        ArgumentOutOfRangeException ex = Assert.Throws<ArgumentOutOfRangeException>(() => EntryPolicy.Resolve(options, Defaults));

        Assert.Equal(("options", message + " (Parameter 'options')"), (ex.ParamName, ex.Message));
    }

    [Fact]
    public void ClientSettings_InvalidGetOrCreateDefault_NamesTheNestedProperty()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211" } };
        options.GetOrCreate.EarlyRefresh = -0.5;

        MemcachedConfigurationException ex = Assert.Throws<MemcachedConfigurationException>(() => ClientSettings.Create(options));

        Assert.Equal("GetOrCreate.EarlyRefresh", ex.PropertyName);
        Assert.Equal("MemcachedClientOptions.GetOrCreate.EarlyRefresh is -0.5; it must be at least 0 and below 1 (0.1 refreshes in the last tenth of the expiration; 0 turns early refresh off).", ex.Message);
    }
}
