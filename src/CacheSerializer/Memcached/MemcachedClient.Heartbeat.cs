using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Nodes;

namespace CacheSerializer.Memcached;

// The heartbeat: one thread of the client's own that times out requests whose reply is overdue and brings servers that
// are down back up (their probes), so neither waits for the thread pool.
public sealed partial class MemcachedClient
{
    /// <remarks>
    /// At rest it wakes once a period (a quarter of the operation timeout, between 10 and 250 ms: 4 times a second with
    /// the defaults) and looks at each connection's oldest request. While a server is down it also wakes when its probe
    /// is due and when a step of the probe ends (the open, the reply: <see cref="MemcachedNode.Recover"/>), so a server
    /// is used again as soon as it answers, whatever the thread pool is doing (issue 30).
    /// </remarks>
    private void Heartbeat()
    {
        long period = (long)(Math.Clamp(_settings.OperationTimeout.TotalMilliseconds / 4, 10, 250) * Stopwatch.Frequency / 1000);
        while (true)
        {
            long now = Stopwatch.GetTimestamp();
            long next = now + period;
            foreach (MemcachedNode node in _nodes)
            {
                node.CheckTimeouts(now);
                next = Math.Min(next, node.Recover(now));
            }

            // The clock read once more, after the work: the wait is what is left of it, never negative.
            double waitMs = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), next).TotalMilliseconds;
            _wake.Wait((int)Math.Ceiling(Math.Max(waitMs, 0)));
            _wake.Reset(); // before the check: a wake from now on is seen by the next wait
            if (Volatile.Read(ref _disposed) != 0)
            {
                break;
            }
        }

        foreach (MemcachedNode node in _nodes)
        {
            node.StopRecovery();
        }
    }

    /// <summary>Wakes the heartbeat now: the client is disposed, or a server's probe has a step to take.</summary>
    private void WakeHeartbeat() => _wake.Set();
}
