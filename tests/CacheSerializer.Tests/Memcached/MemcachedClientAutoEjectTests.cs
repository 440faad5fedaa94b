using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Auto-eject (libmemcached's <c>AUTO_EJECT_HOSTS</c>): a down server's keys go to the live servers and come
/// back when it returns, flushed or not as <see cref="MemcachedClientOptions.FlushOnReturn"/> says.</summary>
public sealed class MemcachedClientAutoEjectTests : IDisposable
{
    private readonly MemcachedServer _a = MemcachedServer.Start();
    private readonly MemcachedServer _b = MemcachedServer.Start();
    private readonly MemcachedServer _c = MemcachedServer.Start();

    public void Dispose()
    {
        _a.Dispose();
        _b.Dispose();
        _c.Dispose();
    }

    private MemcachedClient Client(bool autoEject, bool flushOnReturn = true) => new(new MemcachedClientOptions
    {
        Servers = { _a.Endpoint, _b.Endpoint, _c.Endpoint },
        ConnectTimeout = TimeSpan.FromSeconds(1),
        OperationTimeout = TimeSpan.FromMilliseconds(500),
        ServerDownInterval = TimeSpan.FromMilliseconds(300),
        AutoEject = autoEject,
        FlushOnReturn = flushOnReturn,
    });

    [Fact]
    public async Task ServerKilled_AutoEjectOn_ItsKeysAreStoredOnTheLiveServersThenGoBackWhenItReturns()
    {
        await using MemcachedClient client = Client(autoEject: true);
        string[] keys = Enumerable.Range(0, 200).Select(i => $"eject:{i}").ToArray();
        string[] onB = keys.Where(k => client.GetServerForKey(k) == _b.Endpoint).ToArray();
        Assert.NotEmpty(onB);

        _b.Kill();
        await Poll.UntilAsync(async () => await client.SetAsync(onB[0], "x") == MemcachedStoreResult.Stored, "B's keys are placed elsewhere");
        MemcachedStoreResult[] stored = await Task.WhenAll(onB.Select(k => client.SetAsync(k, "during:" + k)));
        string[] during = onB.Select(client.GetServerForKey).Distinct().Order().ToArray();
        string?[] read = await Task.WhenAll(onB.Select(k => client.GetValueAsync<string>(k)));

        Assert.All(stored, r => Assert.Equal(MemcachedStoreResult.Stored, r));
        Assert.DoesNotContain(_b.Endpoint, during);
        Assert.Equal(onB.Select(k => "during:" + k), read);

        _b.Restart();
        await Poll.UntilAsync(() => client.GetServerForKey(onB[0]) == _b.Endpoint, "B is back on the ring");
        Assert.All(onB, k => Assert.Equal(_b.Endpoint, client.GetServerForKey(k)));
        Assert.False((await client.GetAsync<string>(onB[0])).Found); // B came back empty: a miss, then the application refills it
    }

    [Fact]
    public async Task ServerKilled_AutoEjectOff_ItsKeysMissAndStoresReportServerFailure_NoException()
    {
        await using MemcachedClient client = Client(autoEject: false);
        string[] onB = Enumerable.Range(0, 200).Select(i => $"stay:{i}").Where(k => client.GetServerForKey(k) == _b.Endpoint).ToArray();
        await Task.WhenAll(onB.Select(k => client.SetAsync(k, "v")));

        _b.Kill();
        MemcachedStoreResult[] stored = await Task.WhenAll(onB.Select(k => client.SetAsync(k, "w")));
        MemcachedGetResult<string>[] read = await Task.WhenAll(onB.Select(k => client.GetAsync<string>(k)));

        Assert.All(stored, r => Assert.Equal(MemcachedStoreResult.ServerFailure, r));
        Assert.All(read, r => Assert.False(r.Found));
        Assert.All(onB, k => Assert.Equal(_b.Endpoint, client.GetServerForKey(k)));
    }

    [Theory]
    [InlineData(true, null)]
    [InlineData(false, "before the outage")]
    public async Task ServerFrozenThenResumed_FlushOnReturn_DecidesWhetherItsOldValueIsReadAgain(bool flushOnReturn, string? expected)
    {
        // A frozen server keeps its memory: with the flush, its pre-outage value is gone when it returns; without it,
        // the value written elsewhere during the outage is shadowed by the stale one (the risk docs/client.md describes).
        await using MemcachedClient client = Client(autoEject: true, flushOnReturn);
        string key = Enumerable.Range(0, 200).Select(i => $"stale:{i}").First(k => client.GetServerForKey(k) == _b.Endpoint);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "before the outage"));

        _b.Pause();
        try
        {
            // Only reads go to the frozen server (a store it buffered would be applied when it resumes): the first one
            // times out, which marks it down and ejects it.
            await Poll.UntilAsync(async () =>
            {
                await client.GetAsync<string>(key);
                return client.GetServerForKey(key) != _b.Endpoint;
            }, "the key is placed elsewhere");
            Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "during the outage"));
            Assert.Equal("during the outage", await client.GetValueAsync<string>(key));
        }
        finally
        {
            _b.Resume();
        }

        await Poll.UntilAsync(() => client.GetServerForKey(key) == _b.Endpoint, "B is back on the ring");
        Assert.Equal(expected, await client.GetValueAsync<string>(key));
    }
}
