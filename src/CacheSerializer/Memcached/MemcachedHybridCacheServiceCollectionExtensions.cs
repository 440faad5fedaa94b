using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Hosting;
using CacheSerializer.Memcached.Internal.Hybrid;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers the package's own <see cref="HybridCache"/> over a memcached client (docs/hybrid.md).</summary>
public static class MemcachedHybridCacheServiceCollectionExtensions
{
    /// <summary>Registers the package's own <see cref="HybridCache"/> over the client <c>AddMemcached</c> registered,
    /// replacing any other <see cref="HybridCache"/>: L2 through <c>GetOrCreateAsync</c>'s leases, L1 kept coherent
    /// across servers by an invalidation log in memcached.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options; null for the defaults.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <exception cref="InvalidOperationException">No client is registered yet: call <c>AddMemcached</c> first.</exception>
    public static IServiceCollection AddMemcachedHybridCache(this IServiceCollection services, Action<MemcachedHybridCacheOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        if (MemcachedRegistration.Find(services, null) is null)
        {
            throw new InvalidOperationException("AddMemcachedHybridCache found no memcached client: call services.AddMemcached(...) before it.");
        }

        OptionsBuilder<MemcachedHybridCacheOptions> options = services.AddOptions<MemcachedHybridCacheOptions>();
        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.TryAddSingleton(static provider => new MemcachedHybridCache(
            provider.GetRequiredService<MemcachedEngine>(),
            provider.GetRequiredService<IOptions<MemcachedHybridCacheOptions>>().Value,
            provider,
            provider.GetService<ILoggerFactory>()));
        services.RemoveAll<HybridCache>();
        services.AddSingleton<HybridCache>(static provider => provider.GetRequiredService<MemcachedHybridCache>());
        return services;
    }

    /// <summary>Registers the keyed <see cref="HybridCache"/> <c>[FromKeyedServices(name)] HybridCache</c> over the client
    /// named <paramref name="name"/>, with options of that name.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The name the client was registered with by <c>AddKeyedMemcached</c>.</param>
    /// <param name="configure">Sets the options; null for the defaults.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="name"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty or white space.</exception>
    /// <exception cref="InvalidOperationException">No client is registered under <paramref name="name"/> yet: call
    /// <c>AddKeyedMemcached</c> first.</exception>
    public static IServiceCollection AddKeyedMemcachedHybridCache(this IServiceCollection services, string name, Action<MemcachedHybridCacheOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        if (MemcachedRegistration.Find(services, name) is null)
        {
            throw new InvalidOperationException(
                $"AddKeyedMemcachedHybridCache(\"{name}\") found no memcached client named '{name}': call services.AddKeyedMemcached(\"{name}\", ...) before it.");
        }

        OptionsBuilder<MemcachedHybridCacheOptions> options = services.AddOptions<MemcachedHybridCacheOptions>(name);
        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.AddKeyedSingleton(name, static (provider, key) => new MemcachedHybridCache(
            provider.GetRequiredKeyedService<MemcachedEngine>(key),
            provider.GetRequiredService<IOptionsMonitor<MemcachedHybridCacheOptions>>().Get((string)key!),
            provider,
            provider.GetService<ILoggerFactory>()));
        services.AddKeyedSingleton<HybridCache>(name, static (provider, key) => provider.GetRequiredKeyedService<MemcachedHybridCache>(key));
        return services;
    }
}
