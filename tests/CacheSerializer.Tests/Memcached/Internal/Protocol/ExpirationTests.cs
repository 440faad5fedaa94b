using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

/// <summary>memcached's TTL token for a .NET expiration: relative up to 30 days, then an absolute Unix time, capped at
/// the last second memcached can hold (2038-01-19T03:14:07Z).</summary>
public class ExpirationTests
{
    [Fact]
    public void ToTtl_BeyondTheLastRepresentableSecond_IsCappedAtInt32MaxValue()
    {
        long now = 1_795_000_000; // 2026-11-18

        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.FromDays(365 * 20), now));
        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.MaxValue, now));
        Assert.Equal(int.MaxValue, Expiration.ToTtl(TimeSpan.FromSeconds(int.MaxValue - now), now));
        Assert.Equal(int.MaxValue - 1, Expiration.ToTtl(TimeSpan.FromSeconds(int.MaxValue - now - 1), now));
        Assert.Equal(now + Expiration.MaxRelativeSeconds + 1, Expiration.ToTtl(TimeSpan.FromSeconds(Expiration.MaxRelativeSeconds + 1), now));
        Assert.Equal(Expiration.MaxRelativeSeconds, Expiration.ToTtl(TimeSpan.FromSeconds(Expiration.MaxRelativeSeconds), now));
    }
}
