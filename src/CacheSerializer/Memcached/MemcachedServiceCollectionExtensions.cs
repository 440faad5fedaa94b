using CacheSerializer;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers the memcached client and its <see cref="IDistributedCache"/> in a service collection.</summary>
public static class MemcachedServiceCollectionExtensions
{
    /// <summary>The subsection of the client's section whose values bind to <see cref="ProtobufTranscoderOptions"/>.</summary>
    public const string TranscoderSectionName = "ProtobufTranscoder";

    /// <summary>
    /// Registers a singleton <see cref="MemcachedClient"/> configured in code, and makes it the <see cref="IDistributedCache"/>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options (at least one server).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configure"/> is null.</exception>
    /// <remarks>The options are validated when the client is first resolved; an invalid one throws <see cref="MemcachedConfigurationException"/> naming it.</remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, Action<MemcachedClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<MemcachedClientOptions>().Configure(configure);
        return AddCore(services);
    }

    /// <summary>
    /// Registers a singleton <see cref="MemcachedClient"/> bound to a configuration section (for example
    /// <c>"Memcached": { "Servers": ["127.0.0.1:11211"], "ProtobufTranscoder": { "Compression": "Brotli" } }</c>), and
    /// makes it the <see cref="IDistributedCache"/>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section holding the <see cref="MemcachedClientOptions"/> properties, and optionally a
    /// <c>ProtobufTranscoder</c> subsection holding <see cref="ProtobufTranscoderOptions"/> properties for the package's transcoder.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <remarks>
    /// The options are validated when the client is first resolved; an invalid one throws <see cref="MemcachedConfigurationException"/>
    /// (or, for a transcoder option, <see cref="ArgumentException"/>) naming it. The transcoder's limit is the client's
    /// <see cref="MemcachedClientOptions.MaxValueSize"/>.
    /// </remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        var transcoderSection = configuration.GetSection(TranscoderSectionName);
        services.AddOptions<MemcachedClientOptions>()
            .Bind(configuration)
            .PostConfigure(options =>
            {
                if (options.Transcoder is null && transcoderSection.Exists())
                {
                    options.Transcoder = PackageDefaults.CreateTranscoder(options.MaxValueSize, transcoderSection.Bind);
                }
            });
        return AddCore(services);
    }

    private static IServiceCollection AddCore(IServiceCollection services)
    {
        services.TryAddSingleton(static provider => new MemcachedClient(
            provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value,
            provider.GetService<ILoggerFactory>()));
        services.Replace(ServiceDescriptor.Singleton<IDistributedCache>(static provider =>
            new MemcachedDistributedCache(provider.GetRequiredService<MemcachedClient>())));
        return services;
    }
}
