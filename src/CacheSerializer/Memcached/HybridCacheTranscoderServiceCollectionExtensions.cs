using CacheSerializer;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Reading;
using CacheSerializer.Memcached.Internal.Hosting;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Makes HybridCache store values through a CacheSerializer transcoder (protobuf, types kept) instead of System.Text.Json.</summary>
public static class HybridCacheTranscoderServiceCollectionExtensions
{
    /// <summary>
    /// Registers an <see cref="IHybridCacheSerializerFactory"/> that serializes every type with the registered
    /// <see cref="MemcachedClient"/>'s transcoder; call it after <c>AddHybridCache()</c> and <c>AddMemcached</c>
    /// (which also makes memcached HybridCache's L2, through <c>IDistributedCache</c>).
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <exception cref="InvalidOperationException">No HybridCache is registered yet: call <c>AddHybridCache()</c> first.</exception>
    /// <remarks>A value reads back as the type it was stored as: a <c>Book</c> stored through <c>GetOrCreateAsync&lt;Product&gt;</c>
    /// comes back a <c>Book</c> from L2, where System.Text.Json would return a <c>Product</c> without the <c>Book</c>'s members.
    /// The entry's bytes are the transcoder's flags (4 bytes, little-endian) and item (docs/client.md, "HybridCache").
    /// <para>An entry the transcoder cannot read (written under another contract by another build, of an unknown type,
    /// corrupt) follows <see cref="MemcachedClientOptions.OnUnreadableItem"/>: under <see cref="UnreadableItemPolicy.Miss"/>
    /// it is logged once per type and reason, counted, and read as a miss, so <c>GetOrCreateAsync</c> returns the factory's
    /// value and stores it in both levels. For that, this method wraps every HybridCache registered before it (keyed or
    /// not): HybridCache has no other way to let a serializer report a miss.</para></remarks>
    public static IServiceCollection AddHybridCacheTranscoder(this IServiceCollection services)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddSingleton<IHybridCacheSerializerFactory>(static provider => new TranscoderHybridCacheSerializerFactory(() =>
        {
            MemcachedEngine engine = provider.GetRequiredService<MemcachedEngine>();
            return Reader(provider, engine.Transcoder, engine.Settings.OnUnreadableItem);
        }));
        return MissOnUnreadableEntries(services);
    }

    /// <summary>Registers an <see cref="IHybridCacheSerializerFactory"/> that serializes every type with <paramref name="transcoder"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="transcoder">The transcoder, for example a <see cref="ProtobufTranscoder"/> (thread-safe, shared).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="transcoder"/> is null.</exception>
    /// <exception cref="InvalidOperationException">No HybridCache is registered yet: call <c>AddHybridCache()</c> first.</exception>
    /// <remarks>An entry the transcoder cannot read is read as a miss, as with the other overload; the policy is the
    /// registered <see cref="MemcachedClientOptions.OnUnreadableItem"/> (<see cref="UnreadableItemPolicy.Miss"/> when
    /// none is configured).</remarks>
    public static IServiceCollection AddHybridCacheTranscoder(this IServiceCollection services, ITranscoder transcoder)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(transcoder);
        services.AddSingleton<IHybridCacheSerializerFactory>(provider => new TranscoderHybridCacheSerializerFactory(() =>
            Reader(provider, transcoder, provider.GetService<IOptions<MemcachedClientOptions>>()?.Value.OnUnreadableItem ?? UnreadableItemPolicy.Miss)));
        return MissOnUnreadableEntries(services);
    }

    private static ItemReader Reader(IServiceProvider provider, ITranscoder transcoder, UnreadableItemPolicy policy) =>
        new(transcoder, policy, (ILogger?)provider.GetService<ILoggerFactory>()?.CreateLogger<MemcachedClient>() ?? NullLogger.Instance, "HybridCache serializer");

    /// <summary>Wraps every HybridCache registered so far, keyed or not, so that an entry the transcoder cannot read is
    /// a miss (<see cref="MissOnUnreadableHybridCache"/>); a registration already wrapped is left as it is.</summary>
    /// <exception cref="InvalidOperationException">No HybridCache is registered yet.</exception>
    private static IServiceCollection MissOnUnreadableEntries(IServiceCollection services)
    {
        bool found = false;
        for (int i = 0; i < services.Count; i++)
        {
            ServiceDescriptor descriptor = services[i];
            if (descriptor.ServiceType != typeof(HybridCache))
            {
                continue;
            }

            found = true;
            if (descriptor.IsKeyedService)
            {
                if (descriptor.KeyedImplementationFactory?.Target is not Wrapped)
                {
                    services[i] = ServiceDescriptor.DescribeKeyed(typeof(HybridCache), descriptor.ServiceKey, new Wrapped(descriptor).CreateKeyed, descriptor.Lifetime);
                }
            }
            else if (descriptor.ImplementationFactory?.Target is not Wrapped)
            {
                services[i] = ServiceDescriptor.Describe(typeof(HybridCache), new Wrapped(descriptor).Create, descriptor.Lifetime);
            }
        }

        if (!found)
        {
            throw new InvalidOperationException(
                "AddHybridCacheTranscoder found no HybridCache to wrap: call services.AddHybridCache() before AddHybridCacheTranscoder(), so that an "
                + "entry the transcoder cannot read (another build's contract, corrupt bytes) is a miss rather than an exception (docs/client.md, \"HybridCache\").");
        }

        return services;
    }

    /// <summary>A wrapped HybridCache registration; the factory's target, which also marks it as wrapped.</summary>
    private sealed class Wrapped(ServiceDescriptor inner)
    {
        public MissOnUnreadableHybridCache Create(IServiceProvider provider) => new((HybridCache)(inner.ImplementationInstance
            ?? inner.ImplementationFactory?.Invoke(provider)
            ?? ActivatorUtilities.CreateInstance(provider, inner.ImplementationType!)));

        public MissOnUnreadableHybridCache CreateKeyed(IServiceProvider provider, object? key) => new((HybridCache)(inner.KeyedImplementationInstance
            ?? inner.KeyedImplementationFactory?.Invoke(provider, key)
            ?? ActivatorUtilities.CreateInstance(provider, inner.KeyedImplementationType!)));
    }
}
