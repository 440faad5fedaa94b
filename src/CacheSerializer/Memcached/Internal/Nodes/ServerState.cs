namespace CacheSerializer.Memcached.Internal.Nodes;

/// <summary>One server as the health check saw it: up or not, and in words (latency, or why and for how long it is down).</summary>
internal sealed record ServerState(string Server, bool IsUp, string Description);
