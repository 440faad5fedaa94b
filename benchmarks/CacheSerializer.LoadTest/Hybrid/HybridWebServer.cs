using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ZiggyCreatures.Caching.Fusion;
using ZiggyCreatures.Caching.Fusion.Serialization.SystemTextJson;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>One web server of the hybrid scenario: its own service provider with the contender's HybridCache, registered
/// the way each one's documentation registers it, with nothing shared with the other web servers but the cache servers.</summary>
internal sealed class HybridWebServer : IAsyncDisposable
{
    private readonly ServiceProvider _services;
    private int _disposed;

    private HybridWebServer(ServiceProvider services)
    {
        _services = services;
        Cache = services.GetRequiredService<HybridCache>();
    }

    /// <summary>Gets the web server's HybridCache.</summary>
    public HybridCache Cache { get; }

    /// <summary>Gets a value indicating whether the web server was disposed (a removal it was making then throws).</summary>
    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Gets the build the web server runs.</summary>
    public required HybridBuild Build { get; init; }

    /// <summary>Starts a web server of <paramref name="contender"/>.</summary>
    /// <param name="contender">The contender.</param>
    /// <param name="memcached">The memcached servers (host:port).</param>
    /// <param name="redis">The redis-server (host:port).</param>
    /// <param name="settings">The run's settings: the entries' lifetime in both levels.</param>
    /// <param name="build">The build it runs: the transcoder it registers (the package's contenders), the type it caches.</param>
    /// <param name="logs">Where its logs go (the faults phase counts the package's HybridCache's events), or null for none.</param>
    /// <returns>The web server; dispose it to close its connections.</returns>
    public static HybridWebServer Start(HybridContender contender, IReadOnlyList<string> memcached, string redis, HybridSettings settings, HybridBuild build, ILoggerProvider? logs = null)
    {
        var services = new ServiceCollection();
        if (logs is not null)
        {
            services.AddLogging(b => b.AddProvider(logs));
        }

        var entry = new HybridCacheEntryOptions { Expiration = settings.EntryLifetime, LocalCacheExpiration = settings.EntryLifetime };
        switch (contender)
        {
            case HybridContender.Bounded or HybridContender.Strict:
                AddMemcached(services, memcached, build).AddMemcachedHybridCache(o =>
                {
                    o.L1Coherence = contender == HybridContender.Strict ? HybridCacheCoherence.Strict : HybridCacheCoherence.Bounded;
                    o.DefaultEntryOptions = entry;
                });
                break;
            case HybridContender.MicrosoftMemcached:
                AddMemcached(services, memcached, build).AddHybridCache(o => o.DefaultEntryOptions = entry);
                services.AddHybridCacheTranscoder();
                break;
            case HybridContender.MicrosoftRedis:
                services.AddStackExchangeRedisCache(o => o.Configuration = redis);
                services.AddHybridCache(o => o.DefaultEntryOptions = entry);
                break;
            default:
                IFusionCacheBuilder fusion = services.AddFusionCache()
                    .WithDefaultEntryOptions(o => o.Duration = settings.EntryLifetime)
                    .WithSerializer(new FusionCacheSystemTextJsonSerializer())
                    .WithDistributedCache(new Microsoft.Extensions.Caching.StackExchangeRedis.RedisCache(new Microsoft.Extensions.Caching.StackExchangeRedis.RedisCacheOptions { Configuration = redis }))
                    .WithStackExchangeRedisBackplane(o => o.Configuration = redis)
                    .AsHybridCache();
                if (contender == HybridContender.FusionLocker)
                {
                    ZiggyCreatures.Caching.Fusion.Locking.Distributed.Redis.RedisDistributedLockerExtensions.WithRedisDistributedLocker(fusion, o => o.Configuration = redis);
                }

                break;
        }

        return new HybridWebServer(services.BuildServiceProvider()) { Build = build };
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        Interlocked.Exchange(ref _disposed, 1);
        return _services.DisposeAsync();
    }

    private static IServiceCollection AddMemcached(IServiceCollection services, IReadOnlyList<string> memcached, HybridBuild build) => services.AddMemcached(o =>
    {
        o.Transcoder = build.CreateTranscoder();
        foreach (string endpoint in memcached)
        {
            o.Servers.Add(endpoint);
        }
    });
}
