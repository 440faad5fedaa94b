using CacheSerializer;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal;
using Microsoft.Extensions.Caching.Hybrid;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Makes HybridCache store values through a CacheSerializer transcoder (protobuf, types kept) instead of System.Text.Json.</summary>
public static class HybridCacheTranscoderServiceCollectionExtensions
{
    /// <summary>
    /// Registers an <see cref="IHybridCacheSerializerFactory"/> that serializes every type with the registered
    /// <see cref="MemcachedClient"/>'s transcoder; call it next to <c>AddHybridCache()</c>, after <c>AddMemcached</c>
    /// (which also makes memcached HybridCache's L2, through <c>IDistributedCache</c>).
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <remarks>A value reads back as the type it was stored as: a <c>Book</c> stored through <c>GetOrCreateAsync&lt;Product&gt;</c>
    /// comes back a <c>Book</c> from L2, where System.Text.Json would return a <c>Product</c> without the <c>Book</c>'s members.
    /// The entry's bytes are the transcoder's flags (4 bytes, little-endian) and item (docs/client.md, "HybridCache").</remarks>
    public static IServiceCollection AddHybridCacheTranscoder(this IServiceCollection services)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddSingleton<IHybridCacheSerializerFactory>(static provider =>
            new TranscoderHybridCacheSerializerFactory(() => provider.GetRequiredService<MemcachedClient>().Transcoder));
        return services;
    }

    /// <summary>Registers an <see cref="IHybridCacheSerializerFactory"/> that serializes every type with <paramref name="transcoder"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="transcoder">The transcoder, for example a <see cref="ProtobufTranscoder"/> (thread-safe, shared).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="transcoder"/> is null.</exception>
    public static IServiceCollection AddHybridCacheTranscoder(this IServiceCollection services, ITranscoder transcoder)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(transcoder);
        services.AddSingleton<IHybridCacheSerializerFactory>(new TranscoderHybridCacheSerializerFactory(() => transcoder));
        return services;
    }
}
