using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>The servers a key can be placed on, and the placement (<see cref="MemcachedClientOptions.KeyPlacement"/>)
/// over them: every configured node, or (auto-eject) the ones that are up.</summary>
/// <remarks>Immutable: the client swaps in a new ring when a node goes down or comes back, so a lookup never locks.</remarks>
internal sealed class ServerRing
{
    private readonly IKeyLocator _locator;
    private readonly MemcachedNode[] _nodes;

    internal ServerRing(MemcachedNode[] nodes, ClientSettings settings)
    {
        _nodes = nodes;
        ServerEndpoint[] servers = Array.ConvertAll(nodes, static n => n.Endpoint);
        _locator = settings.KeyPlacement == KeyPlacement.Ketama
            ? new KetamaLocator(servers)
            : new EnyimLocator(Array.ConvertAll(servers, s => EnyimLocator.EndPointText(s, settings.TlsFor(s) is not null)),
                legacy: settings.KeyPlacement == KeyPlacement.EnyimMemcachedCoreLegacy);
    }

    internal int Count => _nodes.Length;

    // One server: every key is its (EnyimMemcachedCore's SingleNodeLocator too).
    internal MemcachedNode Locate(in MemcachedKey key) =>
        _nodes.Length == 1 ? _nodes[0] : _nodes[_locator.Locate(key.GetPlacement(stackalloc byte[MemcachedKey.MaxPlainLength]))];
}
