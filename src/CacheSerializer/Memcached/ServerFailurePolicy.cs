namespace CacheSerializer.Memcached;

/// <summary>What a cache call does when its server fails (down, timed out, connection broken or refused, pipeline full):
/// <see cref="MemcachedClientOptions.OnServerFailure"/>.</summary>
public enum ServerFailurePolicy
{
    /// <summary>The call does not throw: a read is a miss, a store returns <see cref="MemcachedStoreResult.ServerFailure"/>,
    /// a delete or touch returns false, a counter returns null, a multi-get leaves the server's keys out, and statistics
    /// leave the server out. The outage is logged once when it starts and once when it ends. The default: a cache outage
    /// must not take the application down.</summary>
    Miss,

    /// <summary>The call throws <see cref="MemcachedException"/> naming the server, the operation and the cause.</summary>
    Throw,
}
