using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Nodes;

namespace CacheSerializer.Memcached;

// The heartbeat: one thread of the client's own that times out requests whose reply is overdue.
public sealed partial class MemcachedClient
{
    private void Heartbeat()
    {
        var period = TimeSpan.FromMilliseconds(Math.Clamp(_settings.OperationTimeout.TotalMilliseconds / 4, 10, 250));
        while (!_disposing.Wait(period))
        {
            long now = Stopwatch.GetTimestamp();
            foreach (MemcachedNode node in _nodes)
            {
                node.CheckTimeouts(now);
            }
        }

        _disposing.Dispose();
    }
}
