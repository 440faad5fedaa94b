namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>What a HybridCache lease returns: a value and the envelope it was read from or made into (null for a caller
/// that joined another's call and could not read its own copy of the value), with the CAS token of the key's item it was
/// read from (for a build copy, the item it is bound to; 0 for a value this call made) and the remaining TTL in seconds
/// it was read with (-1: none, or a value this call made).</summary>
internal sealed record HybridEntry<T>(T Value, HybridEnvelope? Envelope, ulong Cas, long Ttl = -1);
