using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Reads reuse their requests (<see cref="GetRequestPool"/>): a request goes back to its client's pool only when
/// its caller took a result and its connection published it, so a read answered, cancelled or failed under load never
/// hands another read its value or its failure. Against a real memcached.</summary>
public sealed class MemcachedClientRequestReuseTests
{
    [Fact]
    public async Task GetAsync_SequentialReadsOfEveryKind_CreateAtMostTwoRequests()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        await client.SetAsync("k", "v");

        for (int i = 0; i < 100; i++)
        {
            Assert.Equal("v", (await client.GetAsync<string>("k")).Value);
            Assert.Equal("v", (await client.GetWithCasAsync<string>("k")).Value);
            Assert.Equal("v", (await client.GetAndTouchAsync<string>("k", TimeSpan.FromMinutes(5))).Value);
            Assert.False((await client.GetAsync<string>($"missing{i}")).Found);
        }

        // One request in use, and the one before it until the read thread has published it: 400 reads, two requests.
        Assert.InRange(client.Engine.GetRequests.CreatedCount, 1, 2);
        await Poll.UntilAsync(() => client.Engine.GetRequests.Count == client.Engine.GetRequests.CreatedCount, "every request back in the pool");
    }

    [Fact]
    public async Task GetAsync_ConcurrentReadsOfDistinctKeysSomeCancelled_EveryAnsweredReadGetsItsOwnValueAndNoCancelledRequestIsReused()
    {
        const int Keys = 400;
        const int Rounds = 8;
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        for (int k = 0; k < Keys; k++)
        {
            Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync($"key{k}", $"value-{k}"));
        }

        long cancelled = 0;
        long answered = 0;
        for (int round = 0; round < Rounds; round++)
        {
            // Every third read is cancelled while it is queued, being written or awaiting its reply; the others must each
            // get their own key's value, whichever reused request carries them.
            string?[] results = await Task.WhenAll(Enumerable.Range(0, Keys).Select(k => Task.Run(async () =>
            {
                using var cancel = new CancellationTokenSource();
                if (k % 3 == 0)
                {
                    cancel.CancelAfter(TimeSpan.FromTicks(Random.Shared.Next(0, 20_000)));
                }

                try
                {
                    MemcachedGetResult<string> read = await client.GetAsync<string>($"key{k}", cancel.Token);
                    Interlocked.Increment(ref answered);
                    return read.Value ?? "(miss)";
                }
                catch (OperationCanceledException) when (cancel.IsCancellationRequested)
                {
                    Interlocked.Increment(ref cancelled);
                    return null;
                }
            }))).WaitAsync(Bound.Burst);

            for (int k = 0; k < Keys; k++)
            {
                Assert.True(results[k] is null || results[k] == $"value-{k}", $"round {round}: key{k} read \"{results[k]}\"");
            }

            // A read that returned gave its request back (once its reply was published); a cancelled one never does.
            await Poll.UntilAsync(
                () => client.Engine.GetRequests.Count + Interlocked.Read(ref cancelled) == client.Engine.GetRequests.CreatedCount,
                $"round {round}: {client.Engine.GetRequests.Count} pooled + {cancelled} cancelled = {client.Engine.GetRequests.CreatedCount} created");
        }

        Assert.Equal(Keys * Rounds, answered + cancelled);
        Assert.True(answered >= Keys * Rounds / 2, $"{answered} answered");

        // Each round needs at most one request per key: the rest are those the earlier rounds' cancellations took.
        Assert.InRange(client.Engine.GetRequests.CreatedCount, 1, Keys + cancelled);
    }

    [Fact]
    public async Task GetAsync_ServerFrozenPastTheTimeout_TimedOutRequestsAreNeverReusedAndLaterReadsAreRight()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { server.Endpoint },
            OperationTimeout = TimeSpan.FromMilliseconds(500),
            ServerDownInterval = TimeSpan.FromMilliseconds(200),
            OnServerFailure = ServerFailurePolicy.Throw,
        });
        for (int k = 0; k < 50; k++)
        {
            await client.SetAsync($"key{k}", $"value-{k}");
        }

        server.Pause();
        Exception?[] errors;
        try
        {
            errors = await Task.WhenAll(Enumerable.Range(0, 50).Select(async k =>
            {
                try
                {
                    await client.GetAsync<string>($"key{k}");
                    return null;
                }
                catch (MemcachedException ex)
                {
                    return (Exception)ex;
                }
            })).WaitAsync(Bound.Burst);
        }
        finally
        {
            server.Resume();
        }

        Assert.All(errors, e => Assert.IsType<MemcachedException>(e));
        int failed = errors.Length;

        // The server is marked down for a moment after the outage: reads fail fast (ServerDown) until it is retried, and
        // the first connection after it may still meet the outage's end; each such failure keeps its request too.
        for (int k = 0; k < 50;)
        {
            try
            {
                Assert.Equal($"value-{k}", (await client.GetAsync<string>($"key{k}")).Value);
                k++;
            }
            catch (MemcachedException) when (failed < 1000)
            {
                failed++;
                await Task.Delay(50);
            }
        }

        // Every failed read kept its request out of the pool; every answered one gave it back.
        await Poll.UntilAsync(
            () => client.Engine.GetRequests.Count == client.Engine.GetRequests.CreatedCount - failed,
            $"{client.Engine.GetRequests.Count} pooled, {client.Engine.GetRequests.CreatedCount} created, {failed} failed");
    }
}
