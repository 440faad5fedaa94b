namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A raw read result: hit with the stored item and CAS token, or miss.</summary>
internal readonly struct GetReply
{
    internal GetReply(CacheItem item, ulong cas, long ttl)
    {
        Hit = true;
        Item = item;
        Cas = cas;
        Ttl = ttl;
    }

    internal bool Hit { get; }

    internal CacheItem Item { get; }

    internal ulong Cas { get; }

    /// <summary>Gets the remaining TTL in seconds when asked for (-1: never expires).</summary>
    internal long Ttl { get; }
}
