using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>The ketama continuum over a set of nodes: every configured node, or (auto-eject) the ones that are up.</summary>
/// <remarks>Immutable: the client swaps in a new ring when a node goes down or comes back, so a lookup never locks.</remarks>
internal sealed class ServerRing
{
    private readonly KetamaLocator _locator;
    private readonly MemcachedNode[] _nodes;

    internal ServerRing(MemcachedNode[] nodes)
    {
        _nodes = nodes;
        _locator = new KetamaLocator(Array.ConvertAll(nodes, static n => n.Endpoint));
    }

    internal int Count => _nodes.Length;

    internal MemcachedNode Locate(in MemcachedKey key) =>
        _nodes.Length == 1 ? _nodes[0] : _nodes[_locator.Locate(key.GetBinary(stackalloc byte[MemcachedKey.MaxPlainLength]))];
}
