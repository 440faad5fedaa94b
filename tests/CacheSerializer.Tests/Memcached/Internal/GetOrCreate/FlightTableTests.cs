using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Tests.Memcached.Fixtures;

namespace CacheSerializer.Tests.Memcached.Internal.GetOrCreate;

/// <summary>The in-process single flight's rounds: a caller is only handed what the call decided after it arrived.</summary>
public class FlightTableTests
{
    private readonly FlightTable _table = new();

    [Fact]
    public async Task RunAsync_CallerArrivingBeforeTheDecision_SharesTheRound()
    {
        var work = new SteppedWork(decisions: 1);
        Task<(int Result, bool Joined)> first = Run(work, CancellationToken.None);
        Task<(int Result, bool Joined)> second = Run(work, CancellationToken.None);

        await work.DecideAsync();
        work.Step();

        Assert.Equal((1, false), await first.WaitAsync(Bound.NotStuck));
        Assert.Equal((1, true), await second.WaitAsync(Bound.NotStuck));
        Assert.Equal((1, 0), (work.Runs, _table.Count));
    }

    [Fact]
    public async Task RunAsync_CallerArrivingAfterTheDecision_GetsTheNextRoundsResult()
    {
        var work = new SteppedWork(decisions: 1);
        Task<(int Result, bool Joined)> first = Run(work, CancellationToken.None);
        await work.DecideAsync();
        Task<(int Result, bool Joined)>[] later = [.. Enumerable.Range(0, 3).Select(_ => Run(work, CancellationToken.None))];

        work.Step();                 // round 1 ends
        Assert.Equal((1, false), await first.WaitAsync(Bound.NotStuck));
        await work.DecideAsync();    // round 2, shared by the three that arrived during round 1
        work.Step();

        Assert.Equal(Enumerable.Repeat((2, true), 3), await Task.WhenAll(later).WaitAsync(Bound.NotStuck));
        Assert.Equal((2, 0), (work.Runs, _table.Count));
    }

    [Fact]
    public async Task RunAsync_CallerArrivingBetweenTwoDecisionsOfARound_IsServedByTheLaterOne()
    {
        // A read that found nothing, then a factory run: a caller that arrived after the read and before the factory
        // began is served by the factory's value (it was loaded after the caller arrived).
        var work = new SteppedWork(decisions: 2);
        Task<(int Result, bool Joined)> first = Run(work, CancellationToken.None);
        await work.DecideAsync();
        Task<(int Result, bool Joined)> second = Run(work, CancellationToken.None);

        await work.DecideAsync();
        work.Step();

        Assert.Equal((1, false), await first.WaitAsync(Bound.NotStuck));
        Assert.Equal((1, true), await second.WaitAsync(Bound.NotStuck));
        Assert.Equal(1, work.Runs);
    }

    [Fact]
    public async Task RunAsync_EveryCallerOfTheNextRoundLeaves_TheNextRoundDoesNotRun()
    {
        var work = new SteppedWork(decisions: 1);
        Task<(int Result, bool Joined)> first = Run(work, CancellationToken.None);
        await work.DecideAsync();
        using var leave = new CancellationTokenSource();
        Task<(int Result, bool Joined)> second = Run(work, leave.Token);

        await leave.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second);
        work.Step();

        Assert.Equal((1, false), await first.WaitAsync(Bound.NotStuck));
        Assert.Equal((1, 0, false), (work.Runs, _table.Count, work.LastToken.IsCancellationRequested));
    }

    [Fact]
    public async Task RunAsync_EveryCallerOfBothRoundsLeaves_TheWorkIsCancelled()
    {
        var work = new SteppedWork(decisions: 1);
        using var leaveFirst = new CancellationTokenSource();
        using var leaveSecond = new CancellationTokenSource();
        Task<(int Result, bool Joined)> first = Run(work, leaveFirst.Token);
        await work.DecideAsync();
        Task<(int Result, bool Joined)> second = Run(work, leaveSecond.Token);

        await leaveFirst.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first);
        Assert.False(work.LastToken.IsCancellationRequested); // the next round's caller still waits for the call
        await leaveSecond.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second);
        Assert.True(work.LastToken.IsCancellationRequested);
        Assert.Equal(1, work.Runs);
    }

    [Fact]
    public async Task RunAsync_RoundFails_TheNextRoundsCallersGetItsExceptionToo()
    {
        var work = new SteppedWork(decisions: 1) { Fail = true };
        Task<(int Result, bool Joined)> first = Run(work, CancellationToken.None);
        await work.DecideAsync();
        Task<(int Result, bool Joined)> second = Run(work, CancellationToken.None);

        work.Step();

        Assert.Equal("run 1 failed", (await Assert.ThrowsAsync<InvalidOperationException>(() => first)).Message);
        Assert.Equal("run 1 failed", (await Assert.ThrowsAsync<InvalidOperationException>(() => second)).Message);
        Assert.Equal((1, 0), (work.Runs, _table.Count));
    }

    private Task<(int Result, bool Joined)> Run(SteppedWork work, CancellationToken cancellationToken) =>
        _table.RunAsync("k", work, SteppedWork.RunAsync, cancellationToken);

    /// <summary>A shared call whose steps the test moves on one at a time: before each of its deciding steps and before
    /// it returns, it waits for <see cref="Step"/>; it returns its run number.</summary>
    private sealed class SteppedWork
    {
        private readonly int _decisions;
        private readonly SemaphoreSlim _go = new(0);
        private readonly SemaphoreSlim _decided = new(0);
        private int _runs;

        public SteppedWork(int decisions)
        {
            _decisions = decisions;
        }

        public int Runs => Volatile.Read(ref _runs);

        public bool Fail { get; init; }

        public CancellationToken LastToken { get; private set; }

        public static async Task<int> RunAsync(SteppedWork work, FlightRound round, CancellationToken token)
        {
            int run = Interlocked.Increment(ref work._runs);
            work.LastToken = token;
            for (int i = 0; i < work._decisions; i++)
            {
                await work._go.WaitAsync(token).ConfigureAwait(false);
                round.Decide();
                work._decided.Release();
            }

            await work._go.WaitAsync(token).ConfigureAwait(false);
            return work.Fail ? throw new InvalidOperationException($"run {run} failed") : run;
        }

        /// <summary>Lets the running round take its next step.</summary>
        public void Step() => _go.Release();

        /// <summary>Lets the running round take its next step, a decision, and waits until it has reported it.</summary>
        public async Task DecideAsync()
        {
            Step();
            Assert.True(await _decided.WaitAsync(Bound.NotStuck));
        }
    }
}
