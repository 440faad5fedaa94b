using CoreClient = CacheSerializer.Memcached.MemcachedClient;

namespace CacheSerializer.Enyim;

/// <summary>The client of a second set of servers (<see cref="IMemcachedClient{T}"/>), over the keyed client of its name.</summary>
/// <typeparam name="T">The marker type that names the set of servers.</typeparam>
public sealed class MemcachedClient<T> : MemcachedClient, IMemcachedClient<T>
{
    /// <summary>Creates the EnyimMemcachedCore-shaped front of a client; the client stays the caller's to dispose.</summary>
    /// <param name="client">The client whose servers, transcoder and options every call uses.</param>
    /// <exception cref="ArgumentNullException"><paramref name="client"/> is null.</exception>
    public MemcachedClient(CoreClient client)
        : base(client)
    {
    }
}
