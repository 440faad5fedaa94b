using System.Diagnostics;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary><see cref="MemcachedClient.GetOrCreateAsync{T}"/> and <see cref="MemcachedClient.InvalidateAsync"/> against
/// real memcached: several independent clients stand for the servers of a web farm. Factory calls are counted exactly;
/// waits are on events and conditions, each bounded, never on fixed sleeps.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientGetOrCreateTests : IDisposable
{
    private readonly MemcachedServerFixture _fixture;
    private readonly List<MemcachedClient> _clients = [];

    public MemcachedClientGetOrCreateTests(MemcachedServerFixture fixture)
    {
        _fixture = fixture;
    }

    public void Dispose()
    {
        foreach (MemcachedClient client in _clients)
        {
            client.Dispose();
        }
    }

    private static string Key(string name) => MemcachedServerFixture.UniqueKey(name);

    /// <summary>Independent clients, each with its own connections and its own in-process single flight: the web servers.</summary>
    private MemcachedClient[] Farm(int servers)
    {
        var farm = new MemcachedClient[servers];
        for (int i = 0; i < servers; i++)
        {
            farm[i] = _fixture.CreateClient();
            _clients.Add(farm[i]);
        }

        return farm;
    }

    /// <summary>Waits until the key's remaining TTL in memcached is below <paramref name="seconds"/> (a plain read takes no win).</summary>
    private static Task WaitForTtlBelowAsync(MemcachedClient client, string key, long seconds) =>
        Poll.UntilAsync(async () =>
        {
            GetReply reply = await client.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true);
            return reply.Hit && reply.Ttl < seconds;
        }, $"the TTL of {key} below {seconds} s");

    /// <summary>Starts <paramref name="perClient"/> concurrent calls on every client.</summary>
    private static Task<string>[] Callers(MemcachedClient[] farm, int perClient, string key, Func<CancellationToken, Task<string>> factory, GetOrCreateOptions options) =>
        farm.SelectMany(client => Enumerable.Range(0, perClient).Select(_ => client.GetOrCreateAsync(key, factory, options))).ToArray();

    [Fact]
    public async Task GetOrCreateAsync_FiveClientsTwoHundredCallersOnExpiredKey_RunFactoryExactlyOnce()
    {
        MemcachedClient[] farm = Farm(5);
        string key = Key("stampede");
        var expiring = new GetOrCreateOptions { Expiration = TimeSpan.FromSeconds(1), LockTimeout = TimeSpan.FromMinutes(1) };
        Assert.Equal("old", await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("old"), expiring));
        await Poll.UntilAsync(async () => !(await farm[0].GetAsync<string>(key)).Found, "the entry expired");
        // The new value lives a minute: with the old one's second, memcached's whole-second clock could drop it before the
        // other servers' waiting callers read it (on a loaded machine they did), and they would start a second stampede.
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromMinutes(1), LockTimeout = TimeSpan.FromMinutes(1) };
        int calls = 0;
        int[] flightsSeen = [];

        Task<string>[] callers = Callers(farm, 200, key, async _ =>
        {
            Interlocked.Increment(ref calls);

            // Hold the value back until every server has its callers waiting, so that all 1,000 are in the stampede.
            await Poll.UntilAsync(() => farm.All(c => c.Engine.Leases.FlightCount == 1), "every client waiting");
            flightsSeen = Array.ConvertAll(farm, c => c.Engine.Leases.FlightCount);
            return "new";
        }, options);
        string[] results = await Task.WhenAll(callers).WaitAsync(Bound.NotStuck);

        Assert.Equal(1, calls);
        Assert.Equal([1, 1, 1, 1, 1], flightsSeen); // each server's 200 callers shared one call
        Assert.Equal(Enumerable.Repeat("new", 1000), results);
        Assert.Equal("new", (await farm[4].GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task GetOrCreateAsync_CallersJoiningOneCall_EachGetsItsOwnCopyOfAMutableValue()
    {
        MemcachedClient client = Farm(1)[0];
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        List<int>? created = null;
        Func<CancellationToken, Task<List<int>>> factory = async _ =>
        {
            await release.Task;
            return created = [1, 2, 3];
        };
        string listKey = Key("mutable");
        Task<List<int>>[] callers = Enumerable.Range(0, 10).Select(_ => client.GetOrCreateAsync(listKey, factory)).ToArray();
        string key = Key("immutable");
        Task<string>[] readers = Enumerable.Range(0, 10).Select(_ => client.GetOrCreateAsync(key, async _ =>
        {
            await release.Task;
            return new string('x', 3);
        })).ToArray();

        release.SetResult();
        List<int>[] lists = await Task.WhenAll(callers).WaitAsync(Bound.NotStuck);
        string[] strings = await Task.WhenAll(readers).WaitAsync(Bound.NotStuck);

        Assert.All(lists, list => Assert.Equal([1, 2, 3], list));
        Assert.Equal(10, lists.Distinct(ReferenceEqualityComparer.Instance).Count()); // no two requests share a mutable object
        Assert.Same(created, lists[0]);                                              // the caller that started it gets the factory's
        Assert.All(strings, s => Assert.Same(strings[0], s));                         // an immutable value is shared
    }

    [Fact]
    public async Task GetOrCreateAsync_StaleValuePresent_EveryCallerReturnsItWithoutWaitingForTheOneRefresh()
    {
        MemcachedClient[] farm = Farm(5);
        string key = Key("stale");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromSeconds(1), StaleWhileRevalidate = TimeSpan.FromMinutes(10), LockTimeout = TimeSpan.FromMinutes(1) };
        await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("old"), options);
        await WaitForTtlBelowAsync(farm[0], key, 600); // stored for 1 s + 10 min: now expired, in its stale window
        var refresh = new GatedRefresh(); // the refresh does not finish while the callers run

        string[] results = await Task.WhenAll(Callers(farm, 200, key, refresh.Factory, options)).WaitAsync(Bound.NotStuck);

        Assert.Equal(Enumerable.Repeat("old", 1000), results);
        await refresh.FinishAsync(farm[3], key, "new");
    }

    [Fact]
    public async Task GetOrCreateAsync_EarlyRefreshWindow_RefreshesOnceWhileEveryCallerGetsTheCurrentValue()
    {
        MemcachedClient[] farm = Farm(5);
        string key = Key("early");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromSeconds(30), EarlyRefresh = 0.9, LockTimeout = TimeSpan.FromMinutes(1) };
        await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("current"), options);
        Assert.Equal("current", await farm[1].GetOrCreateAsync(key, _ => Task.FromResult("too early"), options)); // 30 s left: no win
        await WaitForTtlBelowAsync(farm[0], key, 27); // R27: the last 90 % of the 30 seconds
        var refresh = new GatedRefresh();

        string[] results = await Task.WhenAll(Callers(farm, 50, key, refresh.Factory, options)).WaitAsync(Bound.NotStuck);

        Assert.Equal(Enumerable.Repeat("current", 250), results);
        await refresh.FinishAsync(farm[2], key, "refreshed");
        GetReply stored = await farm[0].Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true);
        Assert.InRange(stored.Ttl, 25, 30); // stored anew for the whole expiration
    }

    [Fact]
    public async Task GetOrCreateAsync_FactoryThrows_KeyIsNotLeftLockedAndTheNextCallerRunsAtOnce()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("throws");
        var options = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) };

        InvalidOperationException thrown = await Assert.ThrowsAsync<InvalidOperationException>(() => farm[0].GetOrCreateAsync<string>(key, _ => throw new InvalidOperationException("database down"), options));

        Assert.Equal("database down", thrown.Message);
        GetReply raw = await farm[0].Engine.Reads.GetRawAsync(key, CancellationToken.None);
        Assert.Equal((false, false), (raw.Hit, raw.IsPlaceholder)); // the placeholder was deleted before the exception surfaced
        var clock = Stopwatch.StartNew();
        Assert.Equal("made", await farm[1].GetOrCreateAsync(key, _ => Task.FromResult("made"), options));
        Assert.True(clock.Elapsed < options.LockTimeout / 2, $"took {clock.Elapsed}: the next caller waited for the lock");
    }

    [Fact]
    public async Task GetOrCreateAsync_WinnerThrowsWhileAnotherServerWaits_TheWaiterTakesOverWithoutWaitingForTheLock()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("takeover");
        var options = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(5) };
        var winnerStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var fail = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<string> winner = farm[0].GetOrCreateAsync<string>(key, async _ =>
        {
            winnerStarted.SetResult();
            await fail.Task;
            throw new InvalidOperationException("database down");
        }, options);
        await winnerStarted.Task.WaitAsync(Bound.NotStuck);
        int waiterCalls = 0;
        Task<string> waiter = farm[1].GetOrCreateAsync(key, _ =>
        {
            Interlocked.Increment(ref waiterCalls);
            return Task.FromResult("from the second server");
        }, options);
        await Poll.UntilAsync(() => farm[1].Engine.Leases.FlightCount == 1, "the second server waiting");

        fail.SetResult();

        await Assert.ThrowsAsync<InvalidOperationException>(() => winner);
        Assert.Equal("from the second server", await waiter.WaitAsync(Bound.NotStuck)); // well before the 5-minute lock
        Assert.Equal(1, waiterCalls);
    }

    [Fact]
    public async Task GetOrCreateAsync_WinnerCrashed_PlaceholderLapsesWithItsLockTimeoutAndAnotherServerWins()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("crash");
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        // Started before the placeholder is created, so the time the machine takes to schedule the crash and the
        // survivor's call is not taken off the placeholder's life the lower bound measures.
        var clock = Stopwatch.StartNew();
        _ = farm[0].GetOrCreateAsync<string>(key, _ =>
        {
            started.SetResult();
            return new TaskCompletionSource<string>().Task; // never returns: the server "crashed" holding the win
        }, new GetOrCreateOptions { LockTimeout = TimeSpan.FromSeconds(1) });
        await started.Task.WaitAsync(Bound.NotStuck);
        farm[0].Dispose();

        // The survivor would wait a minute, but the placeholder lives 1 s + 1 s: it then vivifies a new one and wins.
        string value = await farm[1].GetOrCreateAsync(key, _ => Task.FromResult("survivor"), new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) });

        Assert.Equal("survivor", value);
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(0.5), Bound.NotStuck);
    }

    [Fact]
    public async Task GetOrCreateAsync_WinnerSlowerThanLockTimeout_WaiterRunsTheFactoryItself()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("slow");
        var slow = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<string> winner = farm[0].GetOrCreateAsync(key, _ =>
        {
            started.SetResult();
            return slow.Task;
        }, new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) });
        await started.Task.WaitAsync(Bound.NotStuck);
        var clock = Stopwatch.StartNew();

        string value = await farm[1].GetOrCreateAsync(key, _ => Task.FromResult("impatient"), new GetOrCreateOptions { LockTimeout = TimeSpan.FromSeconds(1) });

        Assert.Equal("impatient", value);
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(1), Bound.NotStuck);
        Assert.Equal("impatient", (await farm[0].GetAsync<string>(key)).Value); // stored: the placeholder is gone
        slow.SetResult("late");
        Assert.Equal("late", await winner.WaitAsync(Bound.NotStuck));
        Assert.Equal("impatient", (await farm[0].GetAsync<string>(key)).Value); // the late winner's CAS store lost (EX)
    }

    [Fact]
    public async Task GetOrCreateAsync_KeyDeletedOrStoredWhileTheFactoryRuns_ItsValueIsReturnedAndNeverStored()
    {
        MemcachedClient[] farm = Farm(2);
        string added = Key("deleted-placeholder");
        string kept = Key("stored-meanwhile");
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var started = new CountdownEvent(2);
        Func<string, Func<CancellationToken, Task<string>>> factory = value => async _ =>
        {
            started.Signal();
            await release.Task;
            return value;
        };
        Task<string> first = farm[0].GetOrCreateAsync(added, factory("created"));
        Task<string> second = farm[0].GetOrCreateAsync(kept, factory("created"));
        Assert.True(started.Wait(Bound.NotStuck));

        // An update's delete or overwrite after the factory loaded: its value may predate the update, so it is not stored.
        Assert.True(await farm[1].DeleteAsync(added));                 // the placeholder is gone: the CAS store gets NF
        await farm[1].SetAsync(kept, "stored by someone else");        // replaced: the CAS store gets EX, the other value stays
        release.SetResult();

        Assert.Equal(("created", "created"), (await first.WaitAsync(Bound.NotStuck), await second.WaitAsync(Bound.NotStuck)));
        Assert.False((await farm[1].GetAsync<string>(added)).Found);
        Assert.Equal("stored by someone else", (await farm[1].GetAsync<string>(kept)).Value);
        Assert.Equal("loaded after the delete", await farm[1].GetOrCreateAsync(added, _ => Task.FromResult("loaded after the delete")));
    }

    [Fact]
    public async Task GetOrCreateAsync_CallerArrivingAfterADeleteCompleted_NeverGetsTheValueLoadedBeforeIt()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("arrived-after-delete");
        string database = "v1";
        var loaded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        int calls = 0;
        Func<CancellationToken, Task<string>> factory = async _ =>
        {
            string row = Volatile.Read(ref database);   // the query, then the rest of the factory's work
            if (Interlocked.Increment(ref calls) == 1)
            {
                loaded.SetResult();
                await release.Task;
            }

            return row;
        };
        Task<string> before = farm[0].GetOrCreateAsync(key, factory);
        await loaded.Task.WaitAsync(Bound.NotStuck);

        // An update: the row, then the key's delete, completed before the next caller of the same process arrives.
        Volatile.Write(ref database, "v2");
        await farm[1].DeleteAsync(key);
        Task<string> after = farm[0].GetOrCreateAsync(key, factory);
        release.SetResult();

        Assert.Equal("v1", await before.WaitAsync(Bound.NotStuck));      // began before the update: either value is right
        Assert.Equal("v2", await after.WaitAsync(Bound.NotStuck));       // began after it: never the value loaded before
        Assert.Equal(2, calls);
        Assert.Equal("v2", (await farm[1].GetAsync<string>(key)).Value); // and v1 was never stored (its placeholder was deleted)
    }

    [Fact]
    public async Task GetOrCreateAsync_ValueTooLargeToStore_ThrowsAndReleasesTheKey()
    {
        using MemcachedClient small = _fixture.CreateClient(configure: o => o.MaxValueSize = 1000);
        string key = Key("too-large");

        await Assert.ThrowsAsync<TranscoderException>(() => small.GetOrCreateAsync(key, _ => Task.FromResult(new byte[1001])));

        GetReply raw = await small.Engine.Reads.GetRawAsync(key, CancellationToken.None);
        Assert.Equal((false, false), (raw.Hit, raw.IsPlaceholder));
        Assert.Equal([1, 2], await small.GetOrCreateAsync(key, _ => Task.FromResult(new byte[] { 1, 2 })));
    }

    [Fact]
    public async Task InvalidateAsync_ThenReadsAcrossTheFarm_StaleServedAtOnceWhileOneCallerRefreshes()
    {
        MemcachedClient[] farm = Farm(5);
        string key = Key("invalidate-swr");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromMinutes(10), StaleWhileRevalidate = TimeSpan.FromMinutes(1), LockTimeout = TimeSpan.FromMinutes(1) };
        await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("v1"), options);
        var refresh = new GatedRefresh();

        Assert.True(await farm[1].InvalidateAsync(key, options));
        string[] results = await Task.WhenAll(Callers(farm, 100, key, refresh.Factory, options)).WaitAsync(Bound.NotStuck);

        Assert.Equal(Enumerable.Repeat("v1", 500), results);
        GetReply stale = await farm[0].Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true);
        Assert.InRange(stale.Ttl, 50, 60); // md I T60: kept for the stale window, not the 10 minutes
        await refresh.FinishAsync(farm[4], key, "v2");
        Assert.Equal("v2", await farm[2].GetOrCreateAsync(key, _ => Task.FromResult("v3"), options));
    }

    [Fact]
    public async Task InvalidateAsync_WithoutStaleWindow_OneCallerRecreatesAndTheOthersWaitForItsValue()
    {
        MemcachedClient[] farm = Farm(5);
        string key = Key("invalidate");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromMinutes(10), LockTimeout = TimeSpan.FromMinutes(1) };
        await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("v1"), options);
        int calls = 0;

        Assert.True(await farm[1].InvalidateAsync(key, options));
        string[] results = await Task.WhenAll(Callers(farm, 100, key, async _ =>
        {
            Interlocked.Increment(ref calls);
            await Poll.UntilAsync(() => farm.All(c => c.Engine.Leases.FlightCount == 1), "every client waiting");
            return "v2";
        }, options)).WaitAsync(Bound.NotStuck);

        Assert.Equal(1, calls);
        Assert.Equal(Enumerable.Repeat("v2", 500), results); // no caller got the invalidated value
    }

    [Fact]
    public async Task InvalidateAsync_MissingKey_ReturnsFalse()
    {
        MemcachedClient client = Farm(1)[0];

        Assert.False(await client.InvalidateAsync(Key("never-stored")));
    }

    [Fact]
    public async Task PlainReads_DuringThePlaceholderWindow_AreMissesNotEmptyValues()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("window");
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<string> winner = farm[0].GetOrCreateAsync(key, async _ =>
        {
            started.SetResult();
            await release.Task;
            return "value";
        }, new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) });
        await started.Task.WaitAsync(Bound.NotStuck);
        using ServiceProvider provider = new ServiceCollection().AddMemcached(o => o.Servers.Add(_fixture.Primary.Endpoint)).BuildServiceProvider();
        IDistributedCache distributed = provider.GetRequiredService<IDistributedCache>();
        MemcachedClient reader = farm[1];

        // The placeholder is an item of 0 bytes with flags 0, which the transcoder would read as "" and IDistributedCache
        // as an empty array: every read path must see a miss.
        GetReply raw = await reader.Engine.Reads.GetRawAsync(key, CancellationToken.None);
        Assert.Equal((false, true), (raw.Hit, raw.IsPlaceholder));
        Assert.False((await reader.GetAsync<string>(key)).Found);
        Assert.False((await reader.GetAsync<byte[]>(key)).Found);
        Assert.Null(await reader.GetValueAsync<string>(key));
        Assert.False((await reader.GetWithCasAsync<string>(key)).Found);
        Assert.Empty(await reader.GetManyAsync<string>([key]));
        Assert.Null(await distributed.GetAsync(key));

        release.SetResult();
        Assert.Equal("value", await winner.WaitAsync(Bound.NotStuck));
        Assert.Equal("value", (await reader.GetAsync<string>(key)).Value);
        Assert.Equal("value", (await reader.GetManyAsync<string>([key]))[key]);
    }

    [Fact]
    public async Task PlainRead_OfAnInvalidatedEntry_HandsItsWinBackSoAGetOrCreateCallerRefreshes()
    {
        MemcachedClient[] farm = Farm(2);
        string key = Key("stray-win");
        var options = new GetOrCreateOptions { Expiration = TimeSpan.FromMinutes(10), StaleWhileRevalidate = TimeSpan.FromMinutes(1) };
        await farm[0].GetOrCreateAsync(key, _ => Task.FromResult("v1"), options);
        await farm[0].InvalidateAsync(key, options);

        // memcached gives the win of a stale item to the first mg of any kind: this plain get receives it.
        Assert.Equal("v1", (await farm[1].GetAsync<string>(key)).Value);

        var refresh = new GatedRefresh();
        await Poll.UntilAsync(async () =>
        {
            Assert.Equal("v1", await farm[0].GetOrCreateAsync(key, refresh.Factory, options));
            return refresh.Calls > 0;
        }, "a GetOrCreateAsync caller won the refresh the plain get handed back");
        await refresh.FinishAsync(farm[1], key, "v2");
    }

    [Fact]
    public async Task GetOrCreateAsync_NoServerListening_OneFactoryCallAtATimeSharedByTheCallersThatArrivedBeforeItBegan()
    {
        await using var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { $"127.0.0.1:{CacheSerializer.LocalServers.MemcachedServer.FreePort()}" },
            ConnectTimeout = TimeSpan.FromSeconds(1),
        });
        string key = Key("outage");
        int calls = 0;
        int running = 0;
        int overlapping = 0;
        var first = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Func<CancellationToken, Task<string>> factory = async _ =>
        {
            int call = Interlocked.Increment(ref calls);
            if (Interlocked.Increment(ref running) > 1)
            {
                Interlocked.Increment(ref overlapping); // a call began while another ran
            }

            first.TrySetResult();
            await release.Task;
            Interlocked.Decrement(ref running);
            return $"from the database, call {call}";
        };

        // The first caller's read fails (nothing listens) and its factory runs; 99 callers arrive while it runs: its
        // value may predate an update they should see, so they share the next call, which runs after it.
        Task<string> starter = client.GetOrCreateAsync(key, factory);
        await first.Task.WaitAsync(Bound.NotStuck);
        Task<string>[] later = Enumerable.Range(0, 99).Select(_ => client.GetOrCreateAsync(key, factory)).ToArray();
        release.SetResult();
        string[] results = await Task.WhenAll(later).WaitAsync(Bound.NotStuck);

        Assert.Equal("from the database, call 1", await starter.WaitAsync(Bound.NotStuck));
        Assert.Equal(Enumerable.Repeat("from the database, call 2", 99), results);
        Assert.Equal((2, 0), (calls, overlapping));
    }

    [Fact]
    public async Task GetOrCreateAsync_ServerKilledWhileAnotherServerWaits_WaiterFallsBackToTheFactory()
    {
        using var server = CacheSerializer.LocalServers.MemcachedServer.Start();
        MemcachedClient[] farm = [NewClient(server.Endpoint), NewClient(server.Endpoint)];
        string key = Key("killed");
        var options = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(5) };
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<string> winner = farm[0].GetOrCreateAsync(key, async _ =>
        {
            started.SetResult();
            await release.Task;
            return "from the winner";
        }, options);
        await started.Task.WaitAsync(Bound.NotStuck);
        Task<string> waiter = farm[1].GetOrCreateAsync(key, _ => Task.FromResult("from the waiter"), options);
        await Poll.UntilAsync(() => farm[1].Engine.Leases.FlightCount == 1, "the second server waiting");

        server.Kill();

        Assert.Equal("from the waiter", await waiter.WaitAsync(Bound.NotStuck)); // its next poll fails: a miss, so the factory
        release.SetResult();
        Assert.Equal("from the winner", await winner.WaitAsync(Bound.NotStuck)); // its store fails quietly (ServerFailure)
    }

    [Fact]
    public async Task GetOrCreateAsync_ThrowPolicyNoServerListening_ThrowsAndRunsNoFactory()
    {
        await using var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { $"127.0.0.1:{CacheSerializer.LocalServers.MemcachedServer.FreePort()}" },
            ConnectTimeout = TimeSpan.FromSeconds(1),
            OnServerFailure = ServerFailurePolicy.Throw,
        });
        int calls = 0;

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetOrCreateAsync(Key("throw"), _ =>
        {
            calls++;
            return Task.FromResult("unused");
        }));

        Assert.Equal(("get_or_create", 0), (ex.Operation, calls));
    }

    [Fact]
    public async Task GetOrCreateAsync_OneCallerCancels_TheOthersStillGetTheValue()
    {
        MemcachedClient client = Farm(1)[0];
        string key = Key("cancel-one");
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        CancellationToken factoryToken = default;
        Func<CancellationToken, Task<string>> factory = async token =>
        {
            factoryToken = token;
            await release.Task;
            return "value";
        };
        using var impatient = new CancellationTokenSource();
        Task<string> first = client.GetOrCreateAsync(key, factory, cancellationToken: impatient.Token);
        Task<string> second = client.GetOrCreateAsync(key, factory);

        impatient.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first.WaitAsync(Bound.NotStuck));
        release.SetResult();
        Assert.Equal("value", await second.WaitAsync(Bound.NotStuck));
        Assert.False(factoryToken.IsCancellationRequested);
    }

    [Fact]
    public async Task GetOrCreateAsync_EveryCallerCancels_FactoryIsCancelledAndTheKeyReleased()
    {
        MemcachedClient client = Farm(1)[0];
        string key = Key("cancel-all");
        var options = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) };
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var factoryCancelled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cancel = new CancellationTokenSource();
        Task<string>[] callers = Enumerable.Range(0, 3).Select(_ => client.GetOrCreateAsync<string>(key, async token =>
        {
            started.TrySetResult();
            token.Register(() => factoryCancelled.TrySetResult());
            await Task.Delay(Timeout.Infinite, token);
            return "never";
        }, options, cancel.Token)).ToArray();
        await started.Task.WaitAsync(Bound.NotStuck);

        cancel.Cancel();

        foreach (Task<string> caller in callers)
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => caller.WaitAsync(Bound.NotStuck));
        }

        await factoryCancelled.Task.WaitAsync(Bound.NotStuck);
        await Poll.UntilAsync(() => client.Engine.Leases.FlightCount == 0, "the shared call ended");
        var clock = Stopwatch.StartNew();
        Assert.Equal("next", await client.GetOrCreateAsync(key, _ => Task.FromResult("next"), options));
        Assert.True(clock.Elapsed < options.LockTimeout / 2, $"took {clock.Elapsed}: the cancelled call left its placeholder");
    }

    [Fact]
    public async Task HybridCacheL1OverGetOrCreate_FiveServersFiftyCallersEach_OneFactoryCallAndLocalHitsAfter()
    {
        // docs/client.md's recipe: HybridCache for the in-memory L1 of each server, GetOrCreateAsync for one factory call
        // per expiry across the farm (HybridCache's own L2 is turned off: memcached is reached through the client).
        string key = Key("hybrid-l1");
        var options = new GetOrCreateOptions { LockTimeout = TimeSpan.FromMinutes(1) };
        var entry = new HybridCacheEntryOptions { LocalCacheExpiration = TimeSpan.FromMinutes(1), Flags = HybridCacheEntryFlags.DisableDistributedCache };
        MemcachedClient[] farm = Farm(5);
        ServiceProvider[] providers = farm.Select(_ =>
        {
            var services = new ServiceCollection();
            services.AddHybridCache();
            return services.BuildServiceProvider();
        }).ToArray();
        int calls = 0;
        int memcachedReads = 0;

        try
        {
            Task<string>[] callers = providers.Zip(farm).SelectMany(server => Enumerable.Range(0, 50).Select(_ =>
                server.First.GetRequiredService<HybridCache>().GetOrCreateAsync(key, async token =>
                {
                    Interlocked.Increment(ref memcachedReads);
                    return await server.Second.GetOrCreateAsync(key, async _ =>
                    {
                        Interlocked.Increment(ref calls);
                        await Poll.UntilAsync(() => Volatile.Read(ref memcachedReads) == 5, "every server reading memcached");
                        return "from the database";
                    }, options, token);
                }, entry).AsTask())).ToArray();
            string[] results = await Task.WhenAll(callers).WaitAsync(Bound.NotStuck);
            string again = await providers[2].GetRequiredService<HybridCache>().GetOrCreateAsync(key, _ => ValueTask.FromResult("not called"), entry);

            Assert.Equal((1, 5), (calls, memcachedReads)); // one database call in the farm, one memcached read per server
            Assert.Equal(Enumerable.Repeat("from the database", 250), results);
            Assert.Equal("from the database", again); // an L1 hit
        }
        finally
        {
            foreach (ServiceProvider provider in providers)
            {
                await provider.DisposeAsync();
            }
        }
    }

    private MemcachedClient NewClient(string endpoint)
    {
        var client = new MemcachedClient(new MemcachedClientOptions
        {
            Servers = { endpoint },
            ConnectTimeout = TimeSpan.FromSeconds(1),
            OperationTimeout = TimeSpan.FromSeconds(2),
            ServerDownInterval = TimeSpan.FromMilliseconds(300),
        });
        _clients.Add(client);
        return client;
    }
}

/// <summary>A background refresh held back until the test lets it finish: counts its factory calls, and checks that
/// the refreshed value lands after exactly one of them.</summary>
internal sealed class GatedRefresh
{
    private readonly TaskCompletionSource<string> _result = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _calls;

    /// <summary>Gets how many times the factory was called.</summary>
    public int Calls => Volatile.Read(ref _calls);

    /// <summary>Gets the factory: it counts the call and does not finish until <see cref="FinishAsync"/>.</summary>
    public Task<string> Factory(CancellationToken token)
    {
        Interlocked.Increment(ref _calls);
        return _result.Task;
    }

    /// <summary>Waits for the refresh to start, lets it return <paramref name="value"/>, waits until a plain read of
    /// <paramref name="reader"/> sees it stored, and checks the factory ran once.</summary>
    public async Task FinishAsync(MemcachedClient reader, string key, string value)
    {
        await Poll.UntilAsync(() => Calls > 0, "the refresh started");
        _result.SetResult(value);
        await Poll.UntilAsync(async () => (await reader.GetAsync<string>(key)).Value == value, "the refreshed value stored");
        Assert.Equal(1, Calls);
    }
}
