using CacheSerializer.Enyim;
using Microsoft.Extensions.DependencyInjection.Extensions;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;
using EnyimClient = CacheSerializer.Enyim.MemcachedClient;

namespace Microsoft.Extensions.DependencyInjection;

// The client surface of a registration: EnyimMemcachedCore's IMemcachedClient over the core client it registered.
public static partial class EnyimServiceCollectionExtensions
{
    /// <summary>Registers <see cref="IMemcachedClient"/> over the unnamed core client (<paramref name="name"/> null), or
    /// <see cref="IMemcachedClient{T}"/> of <paramref name="marker"/> over the keyed core client of <paramref name="name"/>.</summary>
    /// <remarks>Each is one singleton front over the core client the container already owns: its calls share that
    /// client's connections, and disposing the front leaves the client to the container.</remarks>
    static partial void AddClientSurface(IServiceCollection services, string? name, Type? marker)
    {
        if (marker is null)
        {
            services.TryAddSingleton<IMemcachedClient>(static provider => new EnyimClient(provider.GetRequiredService<CoreClient>()));
            return;
        }

        ArgumentNullException.ThrowIfNull(name);
        Type front = typeof(MemcachedClient<>).MakeGenericType(marker);
        services.TryAddSingleton(typeof(IMemcachedClient<>).MakeGenericType(marker),
            provider => Activator.CreateInstance(front, provider.GetRequiredKeyedService<CoreClient>(name))!);
    }
}
