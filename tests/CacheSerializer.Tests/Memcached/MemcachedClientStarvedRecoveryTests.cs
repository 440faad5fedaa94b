using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Logging;
using Xunit.Abstractions;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Issue 30: the way back from an outage does not wait for the thread pool. Callers that hold pool threads in a
/// synchronous call on every miss (as applications with synchronous data access do) starve the pool while memcached is
/// frozen; the cache must come back as soon as the server does. Runs alone (the starved-pool collection): the callers
/// starve the whole process's pool.</summary>
[Collection(MemcachedClientStarvedPoolTests.Name)]
public sealed class MemcachedClientStarvedRecoveryTests
{
    /// <summary>Callers beyond the threads the pool has when the test starts.</summary>
    private const int Callers = 64;
    private const int Keys = 3000;

    private static readonly TimeSpan OperationTimeout = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan ServerDownInterval = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan Freeze = TimeSpan.FromSeconds(1);

    /// <summary>The target: hits again within ServerDownInterval + 1 s of the resume.</summary>
    private static readonly TimeSpan FirstHitBound = ServerDownInterval + TimeSpan.FromSeconds(1);

    /// <summary>The operation timeout fires (the server is marked down) within twice the timeout of the freeze: the
    /// timeout itself, the heartbeat's period (a quarter of it) and scheduling on a busy machine. The requests written
    /// last before the freeze were written before <see cref="MemcachedServer.Pause"/> returned, so that is where it is
    /// measured from.</summary>
    private static readonly TimeSpan TimeoutBound = OperationTimeout * 2;

    /// <summary>How late the connect timeout may mark a server down: the opening's 20 ms poll, a thread start and
    /// scheduling on a loaded 2-core machine; a timer's callback on a blocked pool (the design before) was 622 ms late.</summary>
    private static readonly TimeSpan ConnectLateness = TimeSpan.FromMilliseconds(250);

    /// <summary>How long the test waits for a hit after the resume before it gives up (not stuck: far above the bound,
    /// so a failure reports the real figure up to this).</summary>
    private static readonly TimeSpan GiveUpAfter = TimeSpan.FromSeconds(20);

    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    private readonly ITestOutputHelper _output;

    public MemcachedClientStarvedRecoveryTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public async Task GetAsync_SynchronousCallersStarvePoolWhileServerFrozen1s_HitsWithinServerDownIntervalPlus1sOfResume()
    {
        using var server = MemcachedServer.Start();

        Outcome outcome = await RunAsync(server, server.Endpoint, cutEvery: null);

        AssertRecovered(outcome);
    }

    [Fact]
    public async Task GetAsync_ServerByHostNameFrozen1sWhileCallersStarvePool_HitsWithinServerDownIntervalPlus1sOfResume()
    {
        // A server given by name: its probe resolves the name again (servers in containers change address), and that
        // resolution must not wait for a pool thread either.
        using var server = MemcachedServer.Start();

        Outcome outcome = await RunAsync(server, $"localhost:{server.Port}", cutEvery: null);

        AssertRecovered(outcome);
    }

    [Fact]
    public async Task GetAsync_ConnectionsCutEverySecondAndServerFrozen1s_HitsWithinServerDownIntervalPlus1sOfResume()
    {
        // A network path that resets every connection every second, before, during and after the freeze: a cut lands
        // near the resume, on the probe's connection or on the first connections after it.
        using var server = MemcachedServer.Start();
        using var proxy = CuttingProxy.Start(server.Port);

        Outcome outcome = await RunAsync(server, proxy.Endpoint, cutEvery: TimeSpan.FromSeconds(1), proxy);

        AssertRecovered(outcome);
    }

    [Fact]
    public async Task GetAsync_ServerNeverAnswersTheConnectAndPoolBlocked_ConnectTimeoutMarksItDownOnTime()
    {
        // A listener whose accept queue is full: the kernel drops further SYNs, so a connect hangs as with a server
        // gone from the network. The connect timeout must fire on time with every pool thread blocked (a timer's
        // callback would wait for one): the opening's own thread checks its deadline at each 20 ms poll, so it is
        // marked down within ConnectTimeout + ConnectLateness. The design before (CancelAfter from the start of the
        // connect) was recorded at 1,122 ms for a 500 ms timeout, which this bound fails.
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(0);
        var endpoint = (IPEndPoint)listener.LocalEndPoint!;
        var fillers = new List<Socket>();
        try
        {
            for (int i = 0; i < 4; i++)
            {
                var filler = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { Blocking = false };
                fillers.Add(filler);
                try
                {
                    filler.Connect(endpoint);
                }
                catch (SocketException ex) when (ex.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
                {
                }
            }

            var log = new TimedLog();
            using ILoggerFactory loggerFactory = LoggerFactory.Create(b => b.AddProvider(log).SetMinimumLevel(LogLevel.Debug));
            var connectTimeout = TimeSpan.FromMilliseconds(500);
            var options = new MemcachedClientOptions
            {
                Servers = { $"127.0.0.1:{endpoint.Port}" },
                ConnectTimeout = connectTimeout,
                OperationTimeout = OperationTimeout,
                ServerDownInterval = TimeSpan.FromSeconds(30),
            };
            await using var client = new MemcachedClient(options, loggerFactory);

            // Every pool thread blocked in synchronous work, and more work waiting for one.
            var release = new ManualResetEventSlim();
            Task[] blockers = Enumerable.Range(0, ThreadPool.ThreadCount + Callers).Select(_ => Task.Run(() => release.Wait())).ToArray();
            TimeSpan? downAfter;
            Task<MemcachedGetResult<string>> get;
            try
            {
                Assert.True(Poll(() => ThreadPool.PendingWorkItemCount > 0, Bound, null), "the pool never had work waiting");
                long start = Stopwatch.GetTimestamp();
                get = client.GetAsync<string>("never-connects");
                downAfter = Poll(() => log.FirstAfter(start, "is down") is not null, GiveUpAfter, null)
                    ? Stopwatch.GetElapsedTime(start, log.FirstAfter(start, "is down")!.Value)
                    : null;
            }
            finally
            {
                release.Set();
            }

            await Task.WhenAll(blockers).WaitAsync(Bound);
            _output.WriteLine($"marked down {Ms(downAfter)} after the call");
            Assert.False((await get.WaitAsync(Bound)).Found);
            Assert.True(downAfter is not null, $"not marked down within {Ms(GiveUpAfter)}");
            Assert.True(downAfter >= connectTimeout && downAfter <= connectTimeout + ConnectLateness, $"marked down {Ms(downAfter)} after the call (ConnectTimeout {Ms(connectTimeout)}, at most {Ms(ConnectLateness)} late)");
            Assert.Contains($"could not open a connection within {connectTimeout.TotalMilliseconds:F0} ms", log.Since(0, 0).Single(l => l.Contains("is down", StringComparison.Ordinal)), StringComparison.Ordinal);
        }
        finally
        {
            foreach (Socket filler in fillers)
            {
                filler.Dispose();
            }
        }
    }

    private void AssertRecovered(Outcome outcome)
    {
        _output.WriteLine($"{outcome.Callers} callers, {outcome.ThreadsAtResume} pool threads at the resume, at least {outcome.FewestWaitingWhileDown} work items waiting for one while the server was down; marked down {Ms(outcome.MarkedDownAfterPause)} after the pause; marked up {Ms(outcome.UpAfterResume)} after the resume; first hit {Ms(outcome.FirstHitAfterResume)} after the resume; {outcome.HitsBefore} hits before; {outcome.Cuts} cuts");
        foreach (string line in outcome.Log)
        {
            _output.WriteLine(line);
        }

        Assert.NotNull(outcome.MarkedDownAfterPause);

        // The way back is measured from a starved pool, not assumed: from the mark down to the resume, work was always
        // waiting for a pool thread.
        Assert.True(outcome.FewestWaitingWhileDown > 0, $"at times no work item waited for a pool thread while the server was down ({outcome.FewestWaitingWhileDown}; {outcome.ThreadsAtResume} threads, {outcome.Callers} callers): not starved");
        Assert.True(outcome.MarkedDownAfterPause <= TimeoutBound, $"the operation timeout marked the server down {Ms(outcome.MarkedDownAfterPause)} after the freeze (bound {Ms(TimeoutBound)})");
        Assert.True(outcome.FirstHitAfterResume is not null, $"no hit within {Ms(GiveUpAfter)} of the resume");
        Assert.True(outcome.FirstHitAfterResume <= FirstHitBound, $"first hit {Ms(outcome.FirstHitAfterResume)} after the resume (bound {Ms(FirstHitBound)})");
    }

    private static string Ms(TimeSpan? time) => time is { } t ? $"{t.TotalMilliseconds:F0} ms" : "never";

    /// <summary>64 callers loop get-then-set on 3,000 keys; a miss makes a synchronous 1 ms "database" call on the pool
    /// thread. Once hits flow, memcached is frozen for 1 s; the figures are when the server was marked down (after the
    /// pause) and the first hit of a get started after the resume.</summary>
    private static async Task<Outcome> RunAsync(MemcachedServer server, string endpoint, TimeSpan? cutEvery, CuttingProxy? proxy = null)
    {
        var log = new TimedLog();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(b => b.AddProvider(log).SetMinimumLevel(LogLevel.Debug));
        var options = new MemcachedClientOptions
        {
            Servers = { endpoint },
            OperationTimeout = OperationTimeout,
            ServerDownInterval = ServerDownInterval,
            ConnectTimeout = TimeSpan.FromSeconds(1),
        };
        await using var client = new MemcachedClient(options, loggerFactory);
        byte[] value = new byte[100];

        // 64 callers more than the pool has threads: a pool grown by an earlier test in the process is starved too.
        var run = new Run();
        Task[] callers = Enumerable.Range(0, Callers + ThreadPool.ThreadCount).Select(c => Task.Run(() => CallerAsync(client, run, value, c))).ToArray();

        // The conductor runs on a thread of its own: the callers starve the pool, and the test's own awaits with it.
        var done = new TaskCompletionSource<Outcome>(TaskCreationOptions.RunContinuationsAsynchronously);
        var conductor = new Thread(() =>
        {
            try
            {
                done.SetResult(Conduct(server, run, log, cutEvery, proxy));
            }
            catch (Exception ex)
            {
                done.SetException(ex);
            }
        })
        { IsBackground = true, Name = "starved recovery conductor" };
        conductor.Start();
        try
        {
            return await done.Task.WaitAsync(Bound) with { Callers = callers.Length, Cuts = proxy?.Cuts ?? 0 };
        }
        finally
        {
            run.Stop = true;
            await Task.WhenAll(callers).WaitAsync(Bound);
        }
    }

    private static Outcome Conduct(MemcachedServer server, Run run, TimedLog log, TimeSpan? cutEvery, CuttingProxy? proxy)
    {
        // Hits flowing: every key stored at least once, most of them read back.
        Poll(() => Volatile.Read(ref run.Hits) >= 2 * Keys, Bound, "hits before the freeze");
        if (cutEvery is { } every)
        {
            proxy!.CutEvery(every);
            Poll(() => proxy.Cuts >= 1, Bound, "the first cut");
        }

        long hitsBefore = Volatile.Read(ref run.Hits);
        long pausing = Stopwatch.GetTimestamp();
        server.Pause();
        long pausedAt = Stopwatch.GetTimestamp(); // every memcached thread stopped: requests from now get no reply

        // Once the server is down, a caller's miss and set fail fast: each caller loops on its pool thread without
        // giving it back, and the pool starves. Sampled every 5 ms from 50 ms after the mark (the requests in flight
        // then have failed and their callers are queued) to the resume: the fewest work items waiting for a thread.
        Poll(() => log.FirstAfter(pausing, "is down") is not null, Freeze, null);
        Thread.Sleep(50);
        long fewestWaiting = long.MaxValue;
        int samples = 0;
        while (Stopwatch.GetElapsedTime(pausedAt) < Freeze)
        {
            fewestWaiting = Math.Min(fewestWaiting, ThreadPool.PendingWorkItemCount);
            samples++;
            Thread.Sleep(5);
        }

        int threadsAtResume = ThreadPool.ThreadCount;
        long resumedAt = Stopwatch.GetTimestamp();
        Volatile.Write(ref run.ResumedAt, resumedAt);
        server.Resume();

        bool hit = Poll(() => Volatile.Read(ref run.FirstHitAfterResume) != 0, GiveUpAfter, null);
        TimeSpan? firstHit = hit ? Stopwatch.GetElapsedTime(resumedAt, Volatile.Read(ref run.FirstHitAfterResume)) : null;
        long? down = log.FirstAfter(pausing, "is down");
        long? up = log.FirstAfter(pausing, "is back up");
        return new Outcome(down is { } d ? Stopwatch.GetElapsedTime(pausedAt, Math.Max(d, pausedAt)) : null, firstHit, hitsBefore)
        {
            UpAfterResume = up is { } u ? Stopwatch.GetElapsedTime(resumedAt, u) : null,
            FewestWaitingWhileDown = samples > 0 ? fewestWaiting : null,
            ThreadsAtResume = threadsAtResume,
            Log = log.Since(pausing, resumedAt),
        };
    }

    private static async Task CallerAsync(MemcachedClient client, Run run, byte[] value, int caller)
    {
        var random = new Random(caller);
        while (!run.Stop)
        {
            string key = $"starved-recovery:{random.Next(Keys)}";
            long start = Stopwatch.GetTimestamp();
            MemcachedGetResult<byte[]> got = await client.GetAsync<byte[]>(key);
            if (got.Found)
            {
                Interlocked.Increment(ref run.Hits);
                long resumedAt = Volatile.Read(ref run.ResumedAt);
                if (resumedAt != 0 && start >= resumedAt)
                {
                    Interlocked.CompareExchange(ref run.FirstHitAfterResume, Stopwatch.GetTimestamp(), 0);
                }

                continue;
            }

            Thread.Sleep(1); // the application's synchronous database call, on the pool thread the caller runs on
            await client.SetAsync(key, value);
        }
    }

    private static bool Poll(Func<bool> condition, TimeSpan bound, string? what)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            if (clock.Elapsed > bound)
            {
                return what is null ? false : throw new TimeoutException($"{what}: not within {bound}");
            }

            Thread.Sleep(5);
        }

        return true;
    }

    private sealed record Outcome(TimeSpan? MarkedDownAfterPause, TimeSpan? FirstHitAfterResume, long HitsBefore)
    {
        public int Callers { get; init; }

        public int Cuts { get; init; }

        public TimeSpan? UpAfterResume { get; init; }

        /// <summary>The fewest work items waiting for a pool thread while the server was down (null: not sampled).</summary>
        public long? FewestWaitingWhileDown { get; init; }

        public int ThreadsAtResume { get; init; }

        public IReadOnlyList<string> Log { get; init; } = [];
    }

    private sealed class Run
    {
        public long Hits;
        public long ResumedAt;
        public long FirstHitAfterResume;
        public volatile bool Stop;
    }

    /// <summary>Records when each message was logged (the client logs an outage on the thread that found it).</summary>
    private sealed class TimedLog : ILoggerProvider, ILogger
    {
        private readonly ConcurrentQueue<(long At, string Message)> _lines = new();

        public long? FirstAfter(long timestamp, string contains) =>
            _lines.Where(l => l.At >= timestamp && l.Message.Contains(contains, StringComparison.Ordinal)).Select(l => (long?)l.At).FirstOrDefault();

        /// <summary>The lines logged since <paramref name="timestamp"/>, each with its time from <paramref name="origin"/>.</summary>
        public IReadOnlyList<string> Since(long timestamp, long origin) =>
            _lines.Where(l => l.At >= timestamp).Select(l => $"{Stopwatch.GetElapsedTime(origin, l.At).TotalMilliseconds:F0} ms: {l.Message}").Take(40).ToList();

        public ILogger CreateLogger(string categoryName) => this;

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            _lines.Enqueue((Stopwatch.GetTimestamp(), formatter(state, exception)));

        public void Dispose()
        {
        }
    }

    /// <summary>A TCP proxy to a local server on threads of its own (blocking sockets: the starved pool cannot slow it),
    /// which can reset every connection through it periodically.</summary>
    private sealed class CuttingProxy : IDisposable
    {
        private readonly Socket _listener;
        private readonly int _upstreamPort;
        private readonly List<(Socket Client, Socket Upstream)> _pairs = [];
        private readonly CancellationTokenSource _stop = new();
        private int _cuts;

        private CuttingProxy(int upstreamPort)
        {
            _upstreamPort = upstreamPort;
            _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            _listener.Listen(512);
            StartThread(AcceptLoop, "proxy accept");
        }

        public string Endpoint => $"127.0.0.1:{((IPEndPoint)_listener.LocalEndPoint!).Port}";

        public int Cuts => Volatile.Read(ref _cuts);

        public static CuttingProxy Start(int upstreamPort) => new(upstreamPort);

        /// <summary>Resets every connection through the proxy now and then every <paramref name="period"/>.</summary>
        public void CutEvery(TimeSpan period) => StartThread(
            () =>
            {
                do
                {
                    CutAll();
                }
                while (!_stop.Token.WaitHandle.WaitOne(period));
            },
            "proxy cutter");

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Close();
            CutAll();
        }

        private static void StartThread(ThreadStart loop, string name) => new Thread(loop) { IsBackground = true, Name = name }.Start();

        private static void Reset(Socket socket)
        {
            try
            {
                socket.LingerState = new LingerOption(true, 0); // closes with RST: the connection is cut, not ended
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
            }

            socket.Close();
        }

        private void CutAll()
        {
            (Socket Client, Socket Upstream)[] pairs;
            lock (_pairs)
            {
                pairs = [.. _pairs];
                _pairs.Clear();
            }

            foreach ((Socket client, Socket upstream) in pairs)
            {
                Reset(client);
                Reset(upstream);
            }

            Interlocked.Increment(ref _cuts);
        }

        private void AcceptLoop()
        {
            while (!_stop.IsCancellationRequested)
            {
                Socket client;
                try
                {
                    client = _listener.Accept();
                }
                catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
                {
                    return;
                }

                var upstream = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                client.NoDelay = true;
                try
                {
                    upstream.Connect(new IPEndPoint(IPAddress.Loopback, _upstreamPort));
                }
                catch (SocketException)
                {
                    Reset(client);
                    upstream.Close();
                    continue;
                }

                lock (_pairs)
                {
                    _pairs.Add((client, upstream));
                }

                StartThread(() => Pump(client, upstream), "proxy up");
                StartThread(() => Pump(upstream, client), "proxy down");
            }
        }

        private static void Pump(Socket from, Socket to)
        {
            byte[] buffer = new byte[64 * 1024];
            try
            {
                while (true)
                {
                    int read = from.Receive(buffer);
                    if (read == 0)
                    {
                        break;
                    }

                    to.Send(buffer.AsSpan(0, read));
                }
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
            }

            Reset(from);
            Reset(to);
        }
    }
}
