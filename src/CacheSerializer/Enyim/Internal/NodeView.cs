using System.Net;
using CacheSerializer.Memcached.Internal.Nodes;

namespace CacheSerializer.Enyim.Internal;

/// <summary>A server as <see cref="IMemcachedClient.NodeFailed"/> hands it to a handler.</summary>
internal sealed class NodeView(MemcachedNode node) : IMemcachedNode
{
    public EndPoint EndPoint { get; } = ServerStats.EndPointOf(node.Name);

    public bool IsAlive => !node.IsDown;
}
