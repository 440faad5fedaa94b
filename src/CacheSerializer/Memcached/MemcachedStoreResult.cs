namespace CacheSerializer.Memcached;

/// <summary>What the server did with a store (set, add, replace, append, prepend, compare-and-swap).</summary>
public enum MemcachedStoreResult
{
    /// <summary>The value was stored (<c>HD</c>).</summary>
    Stored,

    /// <summary>The condition of the command was not met: add of an existing key, replace/append/prepend of a missing key (<c>NS</c>).</summary>
    NotStored,

    /// <summary>Compare-and-swap: the item changed since its CAS token was read (<c>EX</c>).</summary>
    Exists,

    /// <summary>Compare-and-swap: the item no longer exists (<c>NF</c>).</summary>
    NotFound,

    /// <summary>The server failed (down, timed out, connection broken or refused) and <see cref="ServerFailurePolicy.Miss"/>
    /// returned this instead of throwing: treat the value as not stored. When the connection broke after the request was
    /// written, the server may still have applied it.</summary>
    ServerFailure,
}
