using CacheSerializer.LoadTest.Migrate;
using CacheSerializer.LocalServers;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

/// <summary>A new web server's deletes and reads, against real memcached: whether one completed is what the client did,
/// not what its answer looks like. Under <c>OnServerFailure = Miss</c> the client answers false for an absent key and for
/// a delete its server failed alike (taking the second for completed made the scenario count as stale every later read
/// of the value the delete had not removed), and a miss for an absent key and for a read its server failed alike (which
/// says nothing of what memcached held: no lost hit).</summary>
public sealed class PackageCacheTests
{
    private static readonly UserFolderTree Value = new() { Loaded = new DateTime(2026, 1, 1, 0, 0, 1, DateTimeKind.Utc), Entries = [] };

    [Theory]
    [InlineData(true, "InvalidateAsync")]
    [InlineData(false, "DeleteAsync")]
    public async Task DeleteAsync_ServerPausedPastTheOperationTimeout_NotCompletedAndCaught(bool migrationPhase, string call)
    {
        using var server = MemcachedServer.Start();
        await using PackageCache cache = Create(server, migrationPhase);
        Assert.True((await cache.SetAsync("user:1", Value, CancellationToken.None)).Value);

        server.Pause();
        CacheReply<bool> deleted;
        try
        {
            // The client's default OperationTimeout (2 s) ends the wait; the heartbeat marks the server down.
            deleted = await cache.DeleteAsync("user:1", CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        }
        finally
        {
            server.Resume();
        }

        Assert.False(deleted.Value);
        Assert.Equal($"{call}(\"user:1\"): a server failure, caught (OnServerFailure = Miss)", deleted.Caught);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task DeleteAsync_PresentAndAbsentKeyOnARunningServer_BothCompleted(bool migrationPhase)
    {
        using var server = MemcachedServer.Start();
        await using PackageCache cache = Create(server, migrationPhase);
        Assert.True((await cache.SetAsync("user:2", Value, CancellationToken.None)).Value);

        CacheReply<bool> present = await cache.DeleteAsync("user:2", CancellationToken.None);
        CacheReply<bool> absent = await cache.DeleteAsync("user:3", CancellationToken.None);

        Assert.Equal((true, null), (present.Value, present.Caught));
        Assert.Equal((true, null), (absent.Value, absent.Caught));
        Assert.Null((await cache.GetAsync("user:2", CancellationToken.None)).Value);
    }

    [Fact]
    public async Task GetAsync_ServerPausedPastTheOperationTimeout_MissThatSaysTheServerFailed()
    {
        using var server = MemcachedServer.Start();
        await using PackageCache cache = Create(server, migrationPhase: true);
        Assert.True((await cache.SetAsync("user:4", Value, CancellationToken.None)).Value);

        server.Pause();
        CacheReply<UserFolderTree?> read;
        try
        {
            read = await cache.GetAsync("user:4", CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        }
        finally
        {
            server.Resume();
        }

        Assert.Equal((null, "GetAsync(\"user:4\"): a server failure, read as a miss (OnServerFailure = Miss)", true), (read.Value, read.Caught, read.ServerFailed));
    }

    private static PackageCache Create(MemcachedServer server, bool migrationPhase) =>
        new(MigrationClients.FromSection(MigrationClients.EnyimSection([server.Endpoint], secondStep: !migrationPhase), inner => inner), migrationPhase);
}
