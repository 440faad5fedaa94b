using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Deploys;

/// <summary>A key whose item another build wrote, found by a batch read.</summary>
internal readonly record struct OtherBuildItem(MemcachedNode Node, MemcachedKey Key, string CallerKey, ulong Cas);
