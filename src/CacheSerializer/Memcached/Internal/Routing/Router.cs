using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>Where a key lives: its server on the ring, and (auto-eject) the ring rebuilt when a server goes down or comes back.</summary>
internal sealed partial class Router
{
    private readonly MemcachedNode[] _nodes;
    private readonly ClientSettings _settings;
    private readonly ILogger _logger;
    private readonly ServerRing _fullRing;
    private readonly Lock _gate = new();
    private ServerRing _ring;

    internal Router(MemcachedNode[] nodes, ClientSettings settings, ILogger logger)
    {
        _nodes = nodes;
        _settings = settings;
        _logger = logger;
        _fullRing = _ring = new ServerRing(nodes, settings);
    }

    /// <summary>The server a key lives on now: its ketama owner, or with auto-eject its owner among the servers that are up.</summary>
    internal MemcachedNode Locate(in MemcachedKey key) => Volatile.Read(ref _ring).Locate(key);

    /// <summary>The server a key lives on when every server is up (its ketama owner on the full ring), whatever is down
    /// now: where the HybridCache's invalidation log lives.</summary>
    internal MemcachedNode Home(in MemcachedKey key) => _fullRing.Locate(key);

    /// <summary>A node went down or came back: with auto-eject, the ring is rebuilt over the nodes that are up (all of
    /// them when none is, so calls fail fast rather than pile onto nothing).</summary>
    internal void OnNodeStateChanged(MemcachedNode node)
    {
        if (!_settings.AutoEject)
        {
            return;
        }

        lock (_gate)
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
