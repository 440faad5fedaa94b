using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Hybrid;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>Web servers of a farm, each its own service provider (client, engine, HybridCache, L1, poller) over one
/// real memcached (or several, each web server with the same ring); disposing the farm disposes them.</summary>
internal sealed class HybridFarm : IDisposable
{
    private readonly List<ServiceProvider> _providers = [];

    public HybridFarm(MemcachedServer server, int servers, Action<MemcachedHybridCacheOptions>? configure = null, Action<IServiceCollection>? services = null, Action<MemcachedClientOptions>? client = null)
        : this([server.Endpoint], servers, configure, services, client)
    {
    }

    /// <summary>A farm over several memcached servers (the client places keys on them by ketama).</summary>
    public HybridFarm(MemcachedServer[] memcached, int servers, Action<MemcachedHybridCacheOptions>? configure = null, Action<IServiceCollection>? services = null, Action<MemcachedClientOptions>? client = null)
        : this([.. memcached.Select(static m => m.Endpoint)], servers, configure, services, client)
    {
    }

    /// <summary>Web servers over the memcached nodes at <paramref name="endpoints"/>.</summary>
    public HybridFarm(IReadOnlyList<string> endpoints, int servers, Action<MemcachedHybridCacheOptions>? configure = null, Action<IServiceCollection>? services = null, Action<MemcachedClientOptions>? client = null)
    {
        for (int i = 0; i < servers; i++)
        {
            var collection = new ServiceCollection();
            collection.AddMemcached(o =>
            {
                foreach (string endpoint in endpoints)
                {
                    o.Servers.Add(endpoint);
                }

                o.ConnectTimeout = TimeSpan.FromSeconds(2);
                o.OperationTimeout = TimeSpan.FromSeconds(2);
                o.ServerDownInterval = TimeSpan.FromMilliseconds(300);
                client?.Invoke(o);
            });
            services?.Invoke(collection);
            collection.AddMemcachedHybridCache(configure);
            _providers.Add(collection.BuildServiceProvider());
        }
    }

    public HybridCache this[int index] => _providers[index].GetRequiredService<HybridCache>();

    public int Count => _providers.Count;

    internal MemcachedHybridCache Internal(int index) => (MemcachedHybridCache)this[index];

    public MemcachedClient Client(int index) => _providers[index].GetRequiredService<MemcachedClient>();

    /// <summary>The memcached server (host:port) that holds the invalidation log.</summary>
    public string LogsNode => NodeOf("hc:seq");

    /// <summary>A new unique key (see <see cref="MemcachedServerFixture.UniqueKey"/>) that lives on memcached server
    /// <paramref name="endpoint"/>, or with <paramref name="on"/> false, on another one.</summary>
    public string KeyOn(string endpoint, string name, bool on = true) =>
        UniqueWhere(name, key => (NodeOf(key) == endpoint) == on, $"key {(on ? "on" : "off")} {endpoint}");

    /// <summary>A new unique tag whose removal record (<c>hc:tag:&lt;tag&gt;</c>) does not live on memcached server
    /// <paramref name="endpoint"/>.</summary>
    public string TagOff(string endpoint) =>
        UniqueWhere("tag", tag => NodeOf(TagTable.KeyOf(tag)) != endpoint, $"tag whose record is off {endpoint}");

    /// <summary>A new unique name (see <see cref="MemcachedServerFixture.UniqueKey"/>) that <paramref name="fits"/>, in
    /// at most 1,000 tries.</summary>
    public static string UniqueWhere(string name, Func<string, bool> fits, string what)
    {
        for (int i = 0; i < 1000; i++)
        {
            string key = MemcachedServerFixture.UniqueKey(name);
            if (fits(key))
            {
                return key;
            }
        }

        throw new InvalidOperationException($"no {what} found in 1,000 tries");
    }

    /// <summary>The memcached server (host:port) a caller's key lives on.</summary>
    public string NodeOf(string key)
    {
        CacheSerializer.Memcached.Internal.Engine.MemcachedEngine engine = Client(0).Engine;
        return engine.Locate(engine.Key(key)).Name;
    }

    /// <summary>Waits until every server's poller has completed a poll (its L1 is served from then on).</summary>
    public Task UntilPolledAsync() => Poll.UntilAsync(
        () => Enumerable.Range(0, Count).All(i => Internal(i).Log.IsFresh),
        "every server's first complete poll of the invalidation log");

    /// <summary>Waits until every server's poller completed two more polls, so one that began after this call: every
    /// log item written before it is applied (an outage the poller was in has ended).</summary>
    public async Task UntilPolledAgainAsync()
    {
        int[] polls = [.. Enumerable.Range(0, Count).Select(i => Internal(i).Log.CompletePolls)];
        await Poll.UntilAsync(
            () => Enumerable.Range(0, Count).All(i => Internal(i).Log.CompletePolls >= polls[i] + 2),
            "every server's poller reading the log again");
    }

    public void Dispose()
    {
        foreach (ServiceProvider provider in _providers)
        {
            provider.Dispose();
        }
    }
}
