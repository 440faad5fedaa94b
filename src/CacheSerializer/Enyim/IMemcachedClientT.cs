namespace CacheSerializer.Enyim;

/// <summary>The client of a second set of servers, as EnyimMemcachedCore's <c>IMemcachedClient&lt;T&gt;</c>: registered
/// by <c>AddEnyimMemcached&lt;T&gt;</c> over the keyed client of its section.</summary>
/// <typeparam name="T">The marker type that names the set of servers.</typeparam>
#pragma warning disable CA1040 // an empty interface, as EnyimMemcachedCore's: the type argument is what injection resolves
public interface IMemcachedClient<T> : IMemcachedClient
#pragma warning restore CA1040
{
}
