using System.Diagnostics;

namespace CacheSerializer.Memcached.Internal.Nodes;

/// <summary>One thread of the client's own that times out requests whose reply is overdue and brings servers that are
/// down back up (their probes), so neither waits for the thread pool.</summary>
/// <remarks>
/// At rest it wakes once a period (a quarter of the operation timeout, between 10 and 250 ms: 4 times a second with
/// the defaults) and looks at each connection's oldest request. While a server is down it also wakes when its probe
/// is due and when a step of the probe ends (the open, the reply: <see cref="MemcachedNode.Recover"/>), so a server
/// is used again as soon as it answers, whatever the thread pool is doing (issue 30).
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA1001", Justification = "The event lives as long as the engine: its thread waits on it until Stop, and probes may still wake it after.")]
internal sealed class Heartbeat
{
    private readonly MemcachedNode[] _nodes;
    private readonly long _period;
    private readonly ManualResetEventSlim _wake = new();
    private volatile bool _stopped;

    /// <param name="nodes">The servers it looks after (the array may be filled after construction, before <see cref="Start"/>).</param>
    /// <param name="operationTimeout">The client's operation timeout, which sets the period.</param>
    internal Heartbeat(MemcachedNode[] nodes, TimeSpan operationTimeout)
    {
        _nodes = nodes;
        _period = (long)(Math.Clamp(operationTimeout.TotalMilliseconds / 4, 10, 250) * Stopwatch.Frequency / 1000);
    }

    /// <summary>Starts the thread; it is a thread of its own, like the connections' loops, so a starved thread pool can
    /// delay neither a timeout nor a server's return.</summary>
    internal void Start() =>
        new Thread(Run, 128 * 1024) { IsBackground = true, Name = "memcached heartbeat" }.Start();

    /// <summary>Wakes the heartbeat now: a server's probe has a step to take.</summary>
    internal void Wake() => _wake.Set();

    /// <summary>Stops the thread; it stops every probe under way on its way out.</summary>
    internal void Stop()
    {
        _stopped = true;
        _wake.Set();
    }

    private void Run()
    {
        while (true)
        {
            long now = Stopwatch.GetTimestamp();
            long next = now + _period;
            foreach (MemcachedNode node in _nodes)
            {
                node.CheckTimeouts(now);
                next = Math.Min(next, node.Recover(now));
            }

            // The clock read once more, after the work: the wait is what is left of it, never negative.
            double waitMs = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), next).TotalMilliseconds;
            _wake.Wait((int)Math.Ceiling(Math.Max(waitMs, 0)));
            _wake.Reset(); // before the check: a wake from now on is seen by the next wait
            if (_stopped)
            {
                break;
            }
        }

        foreach (MemcachedNode node in _nodes)
        {
            node.StopRecovery();
        }
    }
}
