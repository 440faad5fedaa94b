using CacheSerializer.LocalServers;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Several real memcached servers of a test's own, each on a free 127.0.0.1 port; disposing stops them all.</summary>
public sealed class MemcachedServers : IDisposable
{
    private MemcachedServers(MemcachedServer[] all) => All = all;

    /// <summary>Gets the servers, in the order they started.</summary>
    public MemcachedServer[] All { get; }

    /// <summary>Starts <paramref name="count"/> servers (stopping those started if one fails to).</summary>
    public static MemcachedServers Start(int count)
    {
        var all = new MemcachedServer[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                all[i] = MemcachedServer.Start();
            }
        }
        catch
        {
            foreach (MemcachedServer? started in all)
            {
                started?.Dispose();
            }

            throw;
        }

        return new MemcachedServers(all);
    }

    /// <summary>The server at <paramref name="endpoint"/> (<c>host:port</c>).</summary>
    public MemcachedServer At(string endpoint) => All.Single(s => s.Endpoint == endpoint);

    public void Dispose()
    {
        foreach (MemcachedServer server in All)
        {
            server.Dispose();
        }
    }
}
