using CacheSerializer.Memcached.Internal.Engine;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>One client registered by <c>AddMemcached</c> (<see cref="Name"/> null) or <c>AddKeyedMemcached</c>: what
/// start-up builds and probes, what the options validator checks, and what a second registration of the same client is
/// refused against, naming where the first came from.</summary>
/// <param name="Name">The client's name (its options' name and its service key); null for the unnamed client.</param>
/// <param name="Source">Where its options come from, in words ("configuration section 'Memcached'", "an Action&lt;MemcachedClientOptions&gt;").</param>
internal sealed record MemcachedRegistration(string? Name, string Source)
{
    /// <summary>The client's name in messages: <c>the memcached client</c> or <c>the memcached client 'sessions'</c>.</summary>
    internal string Description => Name is null ? "the memcached client" : $"the memcached client '{Name}'";

    /// <summary>The client's engine (built on first use, which validates its options).</summary>
    internal MemcachedEngine Engine(IServiceProvider provider) =>
        Name is null ? provider.GetRequiredService<MemcachedEngine>() : provider.GetRequiredKeyedService<MemcachedEngine>(Name);

    /// <summary>Finds the registration of the client named <paramref name="name"/> (null: the unnamed one), if any.</summary>
    internal static MemcachedRegistration? Find(IServiceCollection services, string? name)
    {
        foreach (ServiceDescriptor descriptor in services)
        {
            if (descriptor is { ServiceType: var type, IsKeyedService: false, ImplementationInstance: MemcachedRegistration registration }
                && type == typeof(MemcachedRegistration)
                && string.Equals(registration.Name, name, StringComparison.Ordinal))
            {
                return registration;
            }
        }

        return null;
    }
}
