using System.Net;

namespace CacheSerializer.Enyim;

/// <summary>A server, as <see cref="IMemcachedClient.NodeFailed"/> reports it: the part of EnyimMemcachedCore's
/// <c>IMemcachedNode</c> a handler reads (its address and whether it is up); running operations on a node is the
/// client's job here, so <c>Execute</c>, <c>Ping</c> and the node's own <c>Failed</c> event are not offered.</summary>
public interface IMemcachedNode
{
    /// <summary>Gets the server's address (an <see cref="IPEndPoint"/> for an IP address, a <see cref="DnsEndPoint"/> for a host name).</summary>
    EndPoint EndPoint { get; }

    /// <summary>Gets a value indicating whether the server is up now.</summary>
    bool IsAlive { get; }
}
