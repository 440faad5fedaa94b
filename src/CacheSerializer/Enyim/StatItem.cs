namespace CacheSerializer.Enyim;

/// <summary>A general statistic of memcached, as EnyimMemcachedCore's <c>StatItem</c> (same names and values).</summary>
public enum StatItem
{
    /// <summary><c>uptime</c>.</summary>
    Uptime = 0,

    /// <summary><c>time</c>.</summary>
    ServerTime,

    /// <summary><c>version</c>.</summary>
    Version,

    /// <summary><c>curr_items</c>.</summary>
    ItemCount,

    /// <summary><c>total_items</c>.</summary>
    TotalItems,

    /// <summary><c>curr_connections</c>.</summary>
    ConnectionCount,

    /// <summary><c>total_connections</c>.</summary>
    TotalConnections,

    /// <summary><c>connection_structures</c>.</summary>
    ConnectionStructures,

    /// <summary><c>cmd_get</c>.</summary>
    GetCount,

    /// <summary><c>cmd_set</c>.</summary>
    SetCount,

    /// <summary><c>get_hits</c>.</summary>
    GetHits,

    /// <summary><c>get_misses</c>.</summary>
    GetMisses,

    /// <summary><c>bytes</c>.</summary>
    UsedBytes,

    /// <summary><c>bytes_read</c>.</summary>
    BytesRead,

    /// <summary><c>bytes_written</c>.</summary>
    BytesWritten,

    /// <summary><c>limit_maxbytes</c>.</summary>
    MaxBytes,
}
