using CacheSerializer.LoadTest.Migrate;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

/// <summary>The old web server's reads, against real memcached: EnyimMemcachedCore's binary get and DefaultTranscoder's
/// object read (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/Memcached/Protocol/Binary/GetOperation.cs and Transcoders/DefaultTranscoder.cs), so that the
/// scenario counts what an old server would take for a value that is not one.</summary>
public sealed class EnyimClientEmulationTests
{
    [Fact]
    public async Task GetAsync_GetOrCreatePlaceholderOfAClientAfterTheFlip_HitWithNullCountedAsNotAValue()
    {
        using var server = MemcachedServer.Start();
        await using var old = EnyimClientEmulation.Create([server.Endpoint]);
        await using var flipped = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        var entered = new TaskCompletionSource();
        var release = new TaskCompletionSource();
        Task<UserFolderTree> held = flipped.GetOrCreateAsync("user:1", async _ =>
        {
            entered.SetResult();
            await release.Task;
            return new UserFolderTree();
        });
        await entered.Task.WaitAsync(TimeSpan.FromSeconds(30));

        CacheReply<UserFolderTree?> reply = await old.GetAsync("user:1", CancellationToken.None);

        Assert.Equal(
            new CacheReply<UserFolderTree?>(null, null, "GetAsync(\"user:1\") read a hit whose value is null (flags 0x0000, 0 bytes): not a value", $"binary get@{server.Endpoint} hit"),
            reply);
        release.SetResult();
        await held;
    }

    [Fact]
    public async Task GetAsync_ValueTheOldServerStoredAndAMiss_ReadBackAndNull()
    {
        using var server = MemcachedServer.Start();
        await using var old = EnyimClientEmulation.Create([server.Endpoint]);
        var value = new UserFolderTree { Loaded = new DateTime(2026, 1, 1, 0, 0, 1, DateTimeKind.Utc), Entries = [] };

        Assert.Equal(new CacheReply<bool>(true, null, Requests: $"Stored: set@{server.Port} stored"), await old.SetAsync("user:2", value, CancellationToken.None));

        Assert.Equal(value, (await old.GetAsync("user:2", CancellationToken.None)).Value);
        Assert.Equal(new CacheReply<UserFolderTree?>(null, null), await old.GetAsync("user:3", CancellationToken.None));
    }
}
