using System.Globalization;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached.Internal.Engine;

/// <summary>A synchronous call over plaintext sends and reads on its own thread, over a connection of its own
/// (Internal/Connections/BlockingConnection.cs), with the shared connections' failure policy: a timeout or a refused
/// connect marks the server down, a close while idle only reconnects.</summary>
public sealed class SyncCallConnectionTests
{
    [Fact]
    public async Task Run_HundredCallsOnOneThread_OneConnectionOfItsOwnAndNoSharedOnes()
    {
        using var server = MemcachedServer.Start();
        await using var stats = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, ConnectionsPerServer = 1 });
        long before = await TotalConnectionsAsync(stats);
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });

        string? last = null;
        for (int i = 0; i < 50; i++)
        {
            Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync($"own:{i}", $"value {i}")));
            last = SyncCall.Run(() => client.GetAsync<string>($"own:{i}")).Value;
        }

        Assert.Equal("value 49", last);
        Assert.Equal(before + 1, await TotalConnectionsAsync(stats));
    }

    [Fact]
    public void Run_ServerFrozen_TimesOutMarksTheServerDownAndReadsAgainOnceResumed()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { server.Endpoint },
            OnServerFailure = ServerFailurePolicy.Throw,
            OperationTimeout = TimeSpan.FromMilliseconds(500),
            ServerDownInterval = TimeSpan.FromMilliseconds(300),
        });
        Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync("frozen", "kept")));

        server.Pause();
        MemcachedException timeout = Assert.Throws<MemcachedException>(() => SyncCall.Run(() => client.GetAsync<string>("frozen")));
        MemcachedException down = Assert.Throws<MemcachedException>(() => SyncCall.Run(() => client.GetAsync<string>("frozen")));
        server.Resume();
        string? after = null;
        for (long deadline = Environment.TickCount64 + (long)Bound.NotStuck.TotalMilliseconds; after is null && Environment.TickCount64 < deadline;)
        {
            try
            {
                after = SyncCall.Run(() => client.GetAsync<string>("frozen")).Value;
            }
            catch (MemcachedException ex) when (ex.Kind == MemcachedErrorKind.ServerDown)
            {
                Thread.Sleep(50); // until the heartbeat's probe finds it answering
            }
        }

        Assert.Equal(MemcachedErrorKind.Timeout, timeout.Kind);
        Assert.Equal(MemcachedErrorKind.ServerDown, down.Kind);
        Assert.Equal("kept", after);
    }

    [Fact]
    public void Run_ServerKilledWhileIdle_NextCallRefusedAndTheServerMarkedDown()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync("killed", "v")));

        server.Kill();
        Thread.Sleep(100); // idle long enough for the close to be looked for before the next request
        MemcachedException refused = Assert.Throws<MemcachedException>(() => SyncCall.Run(() => client.GetAsync<string>("killed")));
        MemcachedException down = Assert.Throws<MemcachedException>(() => SyncCall.Run(() => client.GetAsync<string>("killed")));

        Assert.Equal(MemcachedErrorKind.ConnectFailed, refused.Kind);
        Assert.Equal(MemcachedErrorKind.ServerDown, down.Kind);
    }

    [Fact]
    public void Run_ServerRestartedWhileIdle_NextCallReconnectsAndMisses()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync("restarted", "v")));

        server.Restart();
        Thread.Sleep(100);
        MemcachedGetResult<string> read = SyncCall.Run(() => client.GetAsync<string>("restarted"));
        MemcachedStoreResult stored = SyncCall.Run(() => client.SetAsync("restarted", "again"));

        Assert.False(read.Found);
        Assert.Equal(MemcachedStoreResult.Stored, stored);
        Assert.Equal("again", SyncCall.Run(() => client.GetAsync<string>("restarted")).Value);
    }

    [Fact]
    public void Run_ValueLargerThanTheReadBuffer_ReadWholeOnTheCallersConnection()
    {
        using var server = MemcachedServer.Start();
        using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw });
        byte[] large = [.. Enumerable.Range(0, 200_000).Select(static i => (byte)(i * 31))];

        Assert.Equal(MemcachedStoreResult.Stored, SyncCall.Run(() => client.SetAsync("large", large)));
        byte[]? read = SyncCall.Run(() => client.GetAsync<byte[]>("large")).Value;
        string? small = SyncCall.Run(() => client.GetAsync<string>("absent")).Value;

        Assert.Equal(large, read);
        Assert.Null(small);
    }

    private static async Task<long> TotalConnectionsAsync(MemcachedClient stats) =>
        long.Parse((await stats.GetStatsAsync()).Single().Value["total_connections"], CultureInfo.InvariantCulture);
}
