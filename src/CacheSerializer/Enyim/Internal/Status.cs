using CacheSerializer.Memcached;

namespace CacheSerializer.Enyim.Internal;

/// <summary>The status codes and messages EnyimMemcachedCore's results carry: it speaks memcached's binary protocol by
/// default, whose response status (protocol_binary.h) and error body (memcached's proto_bin.c) it copies into
/// <see cref="IOperationResult.StatusCode"/> and <see cref="IOperationResult.Message"/>.</summary>
internal static class Status
{
    /// <summary>Nothing was sent (a null value): EnyimMemcachedCore's <c>PerformStore</c> leaves its status at -1.</summary>
    internal const int NotSent = -1;

    /// <summary>KEY_ENOENT.</summary>
    internal const int NotFound = 1;

    /// <summary>KEY_EEXISTS.</summary>
    internal const int Exists = 2;

    /// <summary>NOT_STORED.</summary>
    internal const int NotStored = 5;

    internal static string? MessageOf(int? status) => status switch
    {
        NotSent => "value is null",
        NotFound => "Not found",
        Exists => "Data exists for key.",
        NotStored => "Not stored.",
        _ => null,
    };

    /// <summary>The status of a store's outcome in EnyimMemcachedCore's terms: over the binary protocol an add of an existing
    /// key answers KEY_EEXISTS and a replace of a missing one KEY_ENOENT (memcached's proto_bin.c maps NOT_STORED so);
    /// append and prepend answer NOT_STORED; a server failure has no status.</summary>
    internal static int? Of(MemcachedStoreResult result, StoreMode? mode) => result switch
    {
        MemcachedStoreResult.Stored => 0,
        MemcachedStoreResult.Exists => Exists,
        MemcachedStoreResult.NotFound => NotFound,
        MemcachedStoreResult.NotStored => mode switch
        {
            StoreMode.Add => Exists,
            StoreMode.Replace => NotFound,
            _ => NotStored,
        },
        _ => null,
    };
}
