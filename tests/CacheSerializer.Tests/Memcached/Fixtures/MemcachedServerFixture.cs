using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Three real memcached servers shared by a test collection; each test uses its own keys.</summary>
public sealed class MemcachedServerFixture : IDisposable
{
    /// <summary>Starts the servers (fails with the install command when memcached is missing).</summary>
    public MemcachedServerFixture()
    {
        Servers = [MemcachedServer.Start(), MemcachedServer.Start(), MemcachedServer.Start()];
    }

    /// <summary>Gets the running servers.</summary>
    public IReadOnlyList<MemcachedServer> Servers { get; }

    /// <summary>Gets the first server, for single-server tests.</summary>
    public MemcachedServer Primary => Servers[0];

    /// <summary>Builds options for the first <paramref name="serverCount"/> servers with short timeouts suited to tests.</summary>
    public MemcachedClientOptions Options(int serverCount = 1)
    {
        var options = new MemcachedClientOptions
        {
            ConnectTimeout = TimeSpan.FromSeconds(2),
            OperationTimeout = TimeSpan.FromSeconds(5),
            ServerDownInterval = TimeSpan.FromMilliseconds(500),
        };
        for (int i = 0; i < serverCount; i++)
        {
            options.Servers.Add(Servers[i].Endpoint);
        }

        return options;
    }

    /// <summary>Creates a client on the first <paramref name="serverCount"/> servers.</summary>
    public MemcachedClient CreateClient(int serverCount = 1, Action<MemcachedClientOptions>? configure = null)
    {
        MemcachedClientOptions options = Options(serverCount);
        configure?.Invoke(options);
        return new MemcachedClient(options);
    }

    /// <summary>A key no other test uses.</summary>
    public static string UniqueKey(string name) => $"{name}:{Guid.NewGuid():N}";

    /// <summary>Sets <paramref name="key"/> until the client stores it (a restarted server is in use again), failing
    /// with <paramref name="what"/> after <see cref="Bound.NotStuck"/>.</summary>
    public static Task SetUntilStoredAsync(MemcachedClient client, string key, string value, string what) =>
        Poll.UntilAsync(async () => await client.SetAsync(key, value) == MemcachedStoreResult.Stored, what);

    /// <summary>Waits until no connection to 127.0.0.1:<paramref name="port"/> is open or half-closed (established, or
    /// closed by the server and not yet by the client), as /proc/net/tcp shows: after a server was killed or restarted,
    /// the client's read loops have seen the close and thrown those connections away. Fails after <see cref="Bound.NotStuck"/>.</summary>
    /// <remarks>Only for a server no client has connected to since it restarted: its new connections would count too.</remarks>
    public static Task UntilClientConnectionsClosedAsync(int port)
    {
        string remote = $"0100007F:{port:X4}";
        return Poll.UntilAsync(
            () => !File.ReadLines("/proc/net/tcp").Skip(1)
                .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                .Any(fields => fields.Length > 3 && fields[2] == remote && fields[3] is "01" or "08"), // ESTABLISHED, CLOSE_WAIT
            $"the client's connections to port {port} closed");
    }

    /// <summary>Stops the servers.</summary>
    public void Dispose()
    {
        foreach (MemcachedServer server in Servers)
        {
            server.Dispose();
        }
    }
}

/// <summary>The test collection that shares one <see cref="MemcachedServerFixture"/>.</summary>
[CollectionDefinition(Name)]
public sealed class MemcachedCollection : ICollectionFixture<MemcachedServerFixture>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "memcached";
}
