using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Routing;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached;

// Where a key lives: its server on the ring, and (auto-eject) the ring rebuilt when a server goes down or comes back.
public sealed partial class MemcachedClient
{
    /// <summary>The server a key lives on now: its ketama owner, or with auto-eject its owner among the servers that are up.</summary>
    private MemcachedNode Locate(in MemcachedKey key) => Volatile.Read(ref _ring).Locate(key);

    /// <summary>A node went down or came back: with auto-eject, the ring is rebuilt over the nodes that are up (all of
    /// them when none is, so calls fail fast rather than pile onto nothing).</summary>
    private void OnNodeStateChanged(MemcachedNode node)
    {
        if (!_settings.AutoEject)
        {
            return;
        }

        lock (_ringGate)
        {
            MemcachedNode[] up = Array.FindAll(_nodes, static n => !n.IsDown);
            ServerRing ring = up.Length == _nodes.Length || up.Length == 0 ? _fullRing : new ServerRing(up, _settings);
            Volatile.Write(ref _ring, ring);
            LogRing(_logger, node.Name, node.IsDown ? "ejected" : "returned", ring.Count, _nodes.Length);
        }
    }

    [LoggerMessage(EventId = 11, Level = LogLevel.Information, Message = "memcached server {Server} {Change}: keys are placed on {UpCount} of {ServerCount} servers (auto-eject)")]
    private static partial void LogRing(ILogger logger, string server, string change, int upCount, int serverCount);
}
