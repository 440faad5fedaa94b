using System.Diagnostics;
using System.Net;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Faults: servers killed, frozen and restarted (also with sets in flight), listeners that never answer or send
/// what memcached never sends, and each EnyimMemcachedCore complaint.</summary>
/// <remarks>These tests look at the exceptions themselves, so their clients use <see cref="ServerFailurePolicy.Throw"/>;
/// the default policy (<see cref="ServerFailurePolicy.Miss"/>) is tested in <see cref="MemcachedClientOutageTests"/>.</remarks>
public sealed class MemcachedClientFailureTests
{
    private static MemcachedClientOptions Options(params string[] servers)
    {
        var options = new MemcachedClientOptions
        {
            OnServerFailure = ServerFailurePolicy.Throw,
            ConnectTimeout = TimeSpan.FromSeconds(1),
            OperationTimeout = TimeSpan.FromSeconds(1),
            ServerDownInterval = TimeSpan.FromMilliseconds(300),
        };
        foreach (string server in servers)
        {
            options.Servers.Add(server);
        }

        return options;
    }

    private static async Task<T> Eventually<T>(Func<Task<T>> attempt, TimeSpan within)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return await attempt();
            }
            catch (MemcachedException) when (clock.Elapsed < within)
            {
                await Task.Delay(50);
            }
        }
    }

    [Fact]
    public async Task ServerKilledMidRun_ItsKeysFailFast_OthersWork_ReturnsAfterRestart_NoWrongValue()
    {
        using var a = MemcachedServer.Start();
        using var b = MemcachedServer.Start();
        using var c = MemcachedServer.Start();
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        MemcachedClientOptions options = Options(a.Endpoint, b.Endpoint, c.Endpoint);
        // Timeouts far above the fail-fast bound below, so that a call that waited for one cannot pass for a fast failure.
        options.ConnectTimeout = TimeSpan.FromSeconds(10);
        options.OperationTimeout = TimeSpan.FromSeconds(10);
        await using var client = new MemcachedClient(options, loggerFactory);
        string[] keys = Enumerable.Range(0, 300).Select(i => $"kill:{i}").ToArray();
        string[] onB = keys.Where(k => client.GetServerForKey(k) == b.Endpoint).ToArray();
        string[] elsewhere = keys.Except(onB).ToArray();
        Assert.NotEmpty(onB);
        await Task.WhenAll(keys.Select(k => client.SetAsync(k, "value-of:" + k)));

        // Workers read and write all the time; a read may fail, but a value may never belong to another key.
        int wrong = 0;
        int failures = 0;
        using var stop = new CancellationTokenSource();
        Task[] workers = Enumerable.Range(0, 8).Select(w => Task.Run(async () =>
        {
            for (int i = 0; !stop.IsCancellationRequested && i < 1_000_000; i++)
            {
                string key = keys[(w * 37 + i) % keys.Length];
                try
                {
                    MemcachedGetResult<string> read = await client.GetAsync<string>(key);
                    if (read.Found && read.Value != "value-of:" + key)
                    {
                        Interlocked.Increment(ref wrong);
                    }

                    if (i % 5 == 0)
                    {
                        await client.SetAsync(key, "value-of:" + key);
                    }
                }
                catch (MemcachedException)
                {
                    Interlocked.Increment(ref failures);
                }
            }
        })).ToArray();

        await Task.Delay(200);
        b.Kill();

        // Its keys fail with our exception (first the broken connection or refused connect, then fast while down)...
        MemcachedException down = await Assert.ThrowsAsync<MemcachedException>(() => Eventually(async () =>
        {
            await client.GetAsync<string>(onB[0]);
            return 0;
        }, TimeSpan.Zero).WaitAsync(Bound.NotStuck));
        Assert.Equal(b.Endpoint, down.Server);
        var failFast = Stopwatch.StartNew();
        MemcachedException fast = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync(onB[0], "x"));
        failFast.Stop();
        Assert.Contains(fast.Kind, new[] { MemcachedErrorKind.ServerDown, MemcachedErrorKind.ConnectFailed });
        Assert.Equal("set", fast.Operation);
        // Down (or refused at once on loopback): a fifth of either timeout, far above a loaded machine's scheduling delays.
        Assert.True(failFast.Elapsed < options.OperationTimeout / 5, $"a call to the killed server took {failFast.Elapsed} to fail");

        // ...while the other servers keep working.
        foreach (string key in elsewhere.Take(50))
        {
            Assert.Equal("value-of:" + key, (await client.GetAsync<string>(key)).Value);
        }

        b.Restart();
        await Eventually(() => client.SetAsync(onB[0], "value-of:" + onB[0]), Bound.NotStuck);
        Assert.Equal("value-of:" + onB[0], (await client.GetAsync<string>(onB[0])).Value);

        await stop.CancelAsync();
        await Task.WhenAll(workers).WaitAsync(Bound.NotStuck);
        Assert.Equal(0, wrong);
        Assert.True(failures > 0);
        Assert.Contains(logs.Entries, e => e.Level == LogLevel.Warning && e.Message.Contains($"{b.Endpoint} is down", StringComparison.Ordinal));
        Assert.Contains(logs.Entries, e => e.Level == LogLevel.Information && e.Message.Contains($"{b.Endpoint} is back up", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ServerDown_FailsFastWhileDown()
    {
        int port = MemcachedServer.FreePort();
        MemcachedClientOptions options = Options($"127.0.0.1:{port}");
        options.ServerDownInterval = TimeSpan.FromSeconds(30);
        // Timeouts far above the bound below: a call that tried the server again and waited for either cannot pass for
        // a fast failure, and the bound stays far from a loaded machine's scheduling delays.
        options.ConnectTimeout = TimeSpan.FromSeconds(10);
        options.OperationTimeout = TimeSpan.FromSeconds(10);
        await using var client = new MemcachedClient(options);

        MemcachedException first = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        var clock = Stopwatch.StartNew();
        MemcachedException second = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        clock.Stop();

        Assert.Equal(MemcachedErrorKind.ConnectFailed, first.Kind);
        Assert.Equal(MemcachedErrorKind.ServerDown, second.Kind);
        Assert.Equal("get", second.Operation);
        Assert.Contains($"127.0.0.1:{port}", second.Message, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < options.ConnectTimeout / 5, $"a down server took {clock.Elapsed} to fail");
    }

    [Fact]
    public async Task ListenerThatNeverAnswers_TimeoutFires_NothingHangs()
    {
        using var silent = FakeMemcachedServer.NeverAnswering();
        await using var client = new MemcachedClient(Options(silent.Endpoint));
        var clock = Stopwatch.StartNew();

        Task<MemcachedGetResult<string>>[] calls = Enumerable.Range(0, 20).Select(i => client.GetAsync<string>($"k{i}")).ToArray();
        MemcachedException[] errors = await Task.WhenAll(calls.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.NotStuck);

        Assert.InRange(clock.Elapsed, TimeSpan.FromMilliseconds(900), TimeSpan.FromSeconds(5));
        Assert.Contains(errors, e => e.Kind == MemcachedErrorKind.Timeout && e.Message.Contains("awaiting the reply", StringComparison.Ordinal));
        Assert.All(errors, e => Assert.Equal(silent.Endpoint, e.Server));
        Assert.Equal(MemcachedErrorKind.ServerDown, (await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("after"))).Kind);
    }

    [Fact]
    public async Task ListenerThatResetsBeforeAnswering_TheNextCallFailsFastWithServerDown_EveryRound()
    {
        // The reset marks the server down. The caller told of it resumes at once on another core (continuations are
        // asynchronous), so its next call raced the read thread's MarkDown while the connection failed its callers
        // first: a few rounds in a hundred opened a new connection instead of failing fast.
        using var resetting = FakeMemcachedServer.ResettingOnRequest();
        for (int round = 0; round < 200; round++)
        {
            MemcachedClientOptions options = Options(resetting.Endpoint);
            options.ConnectionsPerServer = 1;
            options.ServerDownInterval = TimeSpan.FromMinutes(1);
            await using var client = new MemcachedClient(options);

            MemcachedException first = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k")).WaitAsync(Bound.NotStuck);
            MemcachedException second = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k")).WaitAsync(Bound.NotStuck);

            Assert.Equal((round, MemcachedErrorKind.ConnectionBroken, MemcachedErrorKind.ServerDown), (round, first.Kind, second.Kind));
        }
    }

    [Fact]
    public async Task ListenerThatNeverAnswers_CancellationEndsTheWaitAtOnce()
    {
        using var silent = FakeMemcachedServer.NeverAnswering();
        MemcachedClientOptions options = Options(silent.Endpoint);
        options.OperationTimeout = TimeSpan.FromSeconds(30);
        await using var client = new MemcachedClient(options);
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
        var clock = Stopwatch.StartNew();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.GetAsync<string>("k", cts.Token)).WaitAsync(Bound.NotStuck);

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(2), $"cancellation took {clock.Elapsed}");
    }

    [Fact]
    public async Task ReplyWithAnotherRequestsOpaque_BreaksTheConnectionWithProtocolError()
    {
        using var liar = FakeMemcachedServer.AnsweringWithWrongOpaque();
        await using var client = new MemcachedClient(Options(liar.Endpoint));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k")).WaitAsync(Bound.NotStuck);

        Assert.Equal(MemcachedErrorKind.ProtocolError, ex.Kind);
        Assert.Contains("O999999", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ReplyWithNothingWaiting_BreaksTheConnection_NextCallUsesANewOne()
    {
        using var stutter = FakeMemcachedServer.AnsweringTwice();
        MemcachedClientOptions options = Options(stutter.Endpoint);
        options.ConnectionsPerServer = 1;
        await using var client = new MemcachedClient(options);

        Assert.False((await client.GetAsync<string>("k")).Found);
        // The duplicate reply arrives with nothing waiting: the connection is thrown away. Waiting for that (not for a
        // fixed time) keeps the next get from being sent on it before the duplicate arrives and taken for its reply.
        await Poll.UntilAsync(() => stutter.ClosedByClient == 1, "the client closes the connection the duplicate reply arrived on");

        Assert.False((await client.GetAsync<string>("k")).Found);
        Assert.Equal(2, stutter.Accepted);
    }

    public static TheoryData<string> Commands => new()
    {
        "get", "gets", "gat", "set", "add", "replace", "append", "prepend", "cas", "delete", "touch", "incr", "decr", "get_many", "flush_all", "stats",
    };

    [Theory]
    [MemberData(nameof(Commands))]
    public async Task EveryCommand_ServerErrorReply_ThrowsNamingServerAndOperation(string command)
    {
        using var failing = FakeMemcachedServer.AnsweringServerError();
        MemcachedClientOptions options = Options(failing.Endpoint);
        // The fake server answers at once, but through the thread pool (its socket awaits), which four test processes on
        // two cores once kept from it for over the class's 1 s timeout (the "incr" row failed as Timeout): the reply's
        // kind is the point here, so the timeout only has to be far from a loaded machine's scheduling.
        options.OperationTimeout = TimeSpan.FromSeconds(10);
        await using var client = new MemcachedClient(options);
        Func<Task> call = command switch
        {
            "get" => () => client.GetAsync<string>("k"),
            "gets" => () => client.GetWithCasAsync<string>("k"),
            "gat" => () => client.GetAndTouchAsync<string>("k", TimeSpan.FromSeconds(5)),
            "set" => () => client.SetAsync("k", "v"),
            "add" => () => client.AddAsync("k", "v"),
            "replace" => () => client.ReplaceAsync("k", "v"),
            "append" => () => client.AppendAsync("k", "v"u8.ToArray()),
            "prepend" => () => client.PrependAsync("k", "v"u8.ToArray()),
            "cas" => () => client.CasAsync("k", "v", 42),
            "delete" => () => client.DeleteAsync("k"),
            "touch" => () => client.TouchAsync("k", TimeSpan.FromSeconds(5)),
            "incr" => () => client.IncrementAsync("k"),
            "decr" => () => client.DecrementAsync("k"),
            "get_many" => () => client.GetManyAsync<string>(["k", "l"]),
            "flush_all" => () => client.FlushAllAsync(),
            _ => () => client.GetStatsAsync(),
        };

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(call).WaitAsync(Bound.NotStuck);

        Assert.Equal(MemcachedErrorKind.ServerError, ex.Kind);
        Assert.Equal(command, ex.Operation);
        Assert.Equal(failing.Endpoint, ex.Server);
        Assert.Equal($"{command} on {failing.Endpoint}: the server replied \"SERVER_ERROR test failure\".", ex.Message);
    }

    [Fact]
    public async Task PoolExhausted_ReportedClearlyNamingTheOptions()
    {
        // EnyimMemcachedCore complaint: pool exhaustion under concurrency reported as "unable to locate node".
        // One slot; each reply comes 1.5 s after its request, and a caller waits at most the 4 s timeout for the slot.
        // The slot passes from caller to caller every 1.5 s, so the first is served (2.5 s to spare) and the sixth,
        // which could have it only after 7.5 s, is refused (3.5 s to spare): margins a loaded machine keeps.
        using var slow = FakeMemcachedServer.AnsweringMissAfter(TimeSpan.FromMilliseconds(1500));
        MemcachedClientOptions options = Options(slow.Endpoint);
        options.ConnectionsPerServer = 1;
        options.MaxInFlightPerConnection = 1;
        options.OperationTimeout = TimeSpan.FromSeconds(4);
        await using var client = new MemcachedClient(options);

        Task<MemcachedGetResult<string>>[] calls = Enumerable.Range(0, 6).Select(i => client.GetAsync<string>($"k{i}")).ToArray();
        Exception?[] outcomes = await Task.WhenAll(calls.Select(async t =>
        {
            try
            {
                await t;
                return null;
            }
            catch (Exception ex)
            {
                return ex;
            }
        })).WaitAsync(Bound.NotStuck);

        // Which callers get the slot is the scheduler's choice: some are served, the rest refused as QueueFull, none
        // fails in another way.
        Assert.Contains(null, outcomes);
        MemcachedException[] refused = outcomes.OfType<MemcachedException>().ToArray();
        Assert.Equal(outcomes.Count(e => e is not null), refused.Length);
        Assert.NotEmpty(refused);
        Assert.All(refused, full => Assert.Equal(MemcachedErrorKind.QueueFull, full.Kind));
        Assert.Contains("raise MemcachedClientOptions.ConnectionsPerServer (currently 1), MaxInFlightPerConnection (currently 1)", refused[0].Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ConnectionsPerServer_AllConnectionsAreOpenedAndUsed()
    {
        using var server = FakeMemcachedServer.AnsweringMissAfter(TimeSpan.Zero);
        MemcachedClientOptions options = Options(server.Endpoint);
        options.ConnectionsPerServer = 3;
        await using var client = new MemcachedClient(options);

        for (int i = 0; i < 30; i++)
        {
            Assert.False((await client.GetAsync<string>($"k{i}")).Found);
        }

        Assert.Equal(3, server.Accepted);
    }

    [Fact]
    public async Task ConnectionClosedWhileCallersWaitForSlots_AllFailPromptly_NoneReportQueueFull()
    {
        var silent = FakeMemcachedServer.NeverAnswering();
        MemcachedClientOptions options = Options(silent.Endpoint);
        options.ConnectionsPerServer = 1;
        options.MaxInFlightPerConnection = 2;
        options.OperationTimeout = TimeSpan.FromSeconds(10);
        await using var client = new MemcachedClient(options);
        Task<MemcachedGetResult<string>>[] calls = Enumerable.Range(0, 20).Select(i => client.GetAsync<string>($"k{i}")).ToArray();
        await Poll.UntilAsync(() => silent.LinesReceived == 2, "the two calls that fit in the pipeline are written");
        var clock = Stopwatch.StartNew();

        silent.Dispose(); // closes the connection: 2 calls were awaiting replies, 18 were waiting for a slot

        MemcachedException[] errors = await Task.WhenAll(calls.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.NotStuck);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(3), $"took {clock.Elapsed}");
        Assert.All(errors, e => Assert.Contains(e.Kind, new[] { MemcachedErrorKind.ConnectionBroken, MemcachedErrorKind.ConnectFailed, MemcachedErrorKind.ServerDown }));
    }

    [Fact]
    public async Task TinyPoolUnderHeavyConcurrency_BackPressureNotFailure()
    {
        using var server = MemcachedServer.Start();
        MemcachedClientOptions options = Options(server.Endpoint);
        options.ConnectionsPerServer = 1;
        options.MaxInFlightPerConnection = 4;
        // The last of the 2,000 callers waits for a slot while the 3,999 operations before it pass through 4 slots:
        // about 2 s here, more on a loaded machine; the timeout bounds that wait, so it is generous.
        options.OperationTimeout = TimeSpan.FromSeconds(60);
        await using var client = new MemcachedClient(options);

        string[] values = await Task.WhenAll(Enumerable.Range(0, 2000).Select(async i =>
        {
            await client.SetAsync($"bp:{i}", $"v{i}");
            return (await client.GetAsync<string>($"bp:{i}")).Value!;
        })).WaitAsync(TimeSpan.FromSeconds(90));

        Assert.Equal(Enumerable.Range(0, 2000).Select(i => $"v{i}"), values);
    }

    [Fact]
    public async Task StartUpUnderLoad_NoDeadlock()
    {
        // EnyimMemcachedCore complaint: a deadlock at start-up under load. A fresh client with no connection gets
        // 3,000 calls at once, some from threads that block on the result.
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(Options(server.Endpoint));

        Task<MemcachedStoreResult>[] async = Enumerable.Range(0, 3000).Select(i => client.SetAsync($"start:{i}", "v")).ToArray();
        Task<bool>[] blocking = Enumerable.Range(0, 8).Select(i => Task.Run(() => client.SetAsync($"start-sync:{i}", "v").GetAwaiter().GetResult() == MemcachedStoreResult.Stored)).ToArray();

        await Task.WhenAll(async).WaitAsync(Bound.NotStuck);
        await Task.WhenAll(blocking).WaitAsync(Bound.NotStuck);
        Assert.All(async, t => Assert.Equal(MemcachedStoreResult.Stored, t.Result));
        Assert.All(blocking, t => Assert.True(t.Result));
    }

    [Fact]
    public async Task ServerRestartedWhileIdle_NextStoresAllSucceed_NoHang()
    {
        // EnyimMemcachedCore complaints: a hang forever after a server restart; stale/reset sockets that fail some stores.
        using var server = MemcachedServer.Start();
        MemcachedClientOptions options = Options(server.Endpoint);
        options.ConnectionsPerServer = 4;
        await using var client = new MemcachedClient(options);
        await Task.WhenAll(Enumerable.Range(0, 200).Select(i => client.SetAsync($"warm:{i}", "v")));

        server.Restart();
        await MemcachedServerFixture.UntilClientConnectionsClosedAsync(server.Port); // the idle connections' read loops saw the close

        MemcachedStoreResult[] results = await Task.WhenAll(Enumerable.Range(0, 200).Select(i => client.SetAsync($"after:{i}", "v"))).WaitAsync(Bound.NotStuck);
        Assert.All(results, r => Assert.Equal(MemcachedStoreResult.Stored, r));
        Assert.Equal("v", (await client.GetAsync<string>("after:7")).Value);
    }

    [Fact]
    public async Task HostName_ResolvedAgainOnEveryReconnect()
    {
        // EnyimMemcachedCore complaint: no DNS re-resolution. "localhost" goes through the system resolver on each connect.
        using var server = MemcachedServer.Start();
        var resolved = new List<string>();
        MemcachedClientOptions options = Options($"localhost:{server.Port}");
        options.ConnectionsPerServer = 1;
        options.HostResolver = async (host, ct) =>
        {
            IPAddress[] addresses = await Dns.GetHostAddressesAsync(host, ct);
            lock (resolved)
            {
                resolved.Add(host);
            }

            return addresses.Where(a => a.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork).ToArray();
        };
        await using var client = new MemcachedClient(options);

        await client.SetAsync("dns", "1");
        server.Restart();
        await MemcachedServerFixture.UntilClientConnectionsClosedAsync(server.Port);
        await Eventually(() => client.SetAsync("dns", "2"), Bound.NotStuck);

        Assert.Equal("2", (await client.GetAsync<string>("dns")).Value);
        Assert.Equal(["localhost", "localhost"], resolved);
    }

    [Fact]
    public async Task Errors_AreThrownNotSwallowed()
    {
        // EnyimMemcachedCore complaint: errors swallowed by default, Set returns false with no reason.
        int port = MemcachedServer.FreePort();
        await using var client = new MemcachedClient(Options($"127.0.0.1:{port}"));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.SetAsync("k", "v"));

        Assert.Equal("set", ex.Operation);
        Assert.Equal($"127.0.0.1:{port}", ex.Server);
        Assert.IsAssignableFrom<CacheSerializerException>(ex);
        Assert.NotNull(ex.InnerException);
    }

    [Fact]
    public async Task Dispose_FailsCallsInFlightAndLaterCalls()
    {
        using var silent = FakeMemcachedServer.NeverAnswering();
        MemcachedClientOptions options = Options(silent.Endpoint);
        options.OperationTimeout = TimeSpan.FromSeconds(30);
        var client = new MemcachedClient(options);
        Task<MemcachedGetResult<string>> inFlight = client.GetAsync<string>("k");
        await Task.Delay(100);

        await client.DisposeAsync();

        // Within half the operation timeout: the dispose failed the call, not the timeout.
        await Assert.ThrowsAsync<MemcachedException>(() => inFlight).WaitAsync(options.OperationTimeout / 2);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => client.GetAsync<string>("k"));
    }

    [Fact]
    public async Task SetsInFlight_ServerKilled_EveryWrittenSetFailsAsConnectionBrokenNotServerDown()
    {
        // The server is frozen so that every set is written and none is answered, then killed while other callers keep
        // sending: the connections break, a reconnect is refused and marks the server down (breaking any connection not
        // yet broken), and no written set may claim it was "not sent".
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(InFlightOptions(server, TimeSpan.FromSeconds(30)));
        await Task.WhenAll(Enumerable.Range(0, 40).Select(i => client.SetAsync($"warm:{i}", "v"))); // opens the 4 connections
        server.Pause();
        Task<MemcachedStoreResult>[] sets = Enumerable.Range(0, 400).Select(i => client.SetAsync($"inflight:{i}", "v")).ToArray();
        await Task.Delay(500); // the write threads send them all; the frozen server's socket buffers take them
        using var stop = new CancellationTokenSource();
        var racerKinds = new List<MemcachedErrorKind>();
        var racer = Task.Run(async () =>
        {
            for (int i = 0; !stop.IsCancellationRequested; i++)
            {
                try
                {
                    await client.SetAsync($"racer:{i}", "v");
                }
                catch (MemcachedException ex)
                {
                    lock (racerKinds)
                    {
                        racerKinds.Add(ex.Kind);
                    }
                }
            }
        });

        server.Kill();
        MemcachedException[] errors = await Task.WhenAll(sets.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.Burst);
        await Task.Delay(200);
        await stop.CancelAsync();
        await racer.WaitAsync(Bound.Burst);

        Assert.All(errors, e => Assert.Equal(MemcachedErrorKind.ConnectionBroken, e.Kind));
        Assert.All(errors, e => Assert.Contains("may or may not have been applied", e.Message, StringComparison.Ordinal));
        Assert.Contains(MemcachedErrorKind.ServerDown, racerKinds); // the server was marked down meanwhile
    }

    [Fact]
    public async Task SetsInFlight_ServerFrozenPastTheTimeout_OneTimeoutAndEveryOtherWrittenSetConnectionBroken()
    {
        // The oldest request times out, which breaks its connection and marks the server down; marking it down breaks the
        // other connections, whose written sets are ConnectionBroken (the server may have applied them), not ServerDown.
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(InFlightOptions(server, TimeSpan.FromSeconds(1)));
        await Task.WhenAll(Enumerable.Range(0, 40).Select(i => client.SetAsync($"warm:{i}", "v")));
        server.Pause();
        try
        {
            Task<MemcachedStoreResult>[] sets = Enumerable.Range(0, 400).Select(i => client.SetAsync($"frozen:{i}", "v")).ToArray();

            MemcachedException[] errors = await Task.WhenAll(sets.Select(t => Assert.ThrowsAsync<MemcachedException>(() => t))).WaitAsync(Bound.Burst);

            Assert.Single(errors, e => e.Kind == MemcachedErrorKind.Timeout);
            Assert.Equal(399, errors.Count(e => e.Kind == MemcachedErrorKind.ConnectionBroken));
        }
        finally
        {
            server.Resume();
        }
    }

    private static MemcachedClientOptions InFlightOptions(MemcachedServer server, TimeSpan operationTimeout) => new()
    {
        Servers = { server.Endpoint },
        ConnectionsPerServer = 4,
        OperationTimeout = operationTimeout,
        ServerDownInterval = TimeSpan.FromSeconds(30),
        OnServerFailure = ServerFailurePolicy.Throw,
    };

    [Fact]
    public async Task Get_ReplyDeclaringOneGiB_IsAProtocolErrorAndNothingIsAllocatedForIt()
    {
        using var liar = FakeMemcachedServer.DeclaringValueOf(1L << 30);
        var options = new MemcachedClientOptions { Servers = { liar.Endpoint }, OnServerFailure = ServerFailurePolicy.Throw };
        await using var client = new MemcachedClient(options);
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k")).WaitAsync(Bound.Burst);

        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        Assert.Equal(MemcachedErrorKind.ProtocolError, ex.Kind);
        Assert.Equal(
            $"get on {liar.Endpoint}: protocol error: a VA reply declares a 1073741824-byte value, above the 1049600-byte limit of this connection (MemcachedClientOptions.MaxValueSize plus 1024 bytes); nothing was read into memory for it; the connection was closed.",
            ex.Message);
        Assert.True(allocated < 64L * 1024 * 1024, $"{allocated:N0} bytes were allocated while the reply was read");
    }
}
