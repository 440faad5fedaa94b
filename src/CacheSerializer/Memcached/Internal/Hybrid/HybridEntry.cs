namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>What a HybridCache lease returns: a value and the envelope it was read from or made into; the envelope is
/// null for a caller that joined another's call and could not read its own copy of the value.</summary>
internal sealed record HybridEntry<T>(T Value, HybridEnvelope? Envelope);
