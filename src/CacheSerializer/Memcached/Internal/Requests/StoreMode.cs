namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>What a store does when the key exists or not, in the client's terms; <see cref="Protocol.MetaWriter"/> alone
/// knows the meta protocol's mode letters.</summary>
internal enum StoreMode
{
    /// <summary>Store whether or not the key exists.</summary>
    Set,

    /// <summary>Store only if the key does not exist.</summary>
    Add,

    /// <summary>Store only if the key exists.</summary>
    Replace,

    /// <summary>Add the bytes after an existing item's data.</summary>
    Append,

    /// <summary>Add the bytes before an existing item's data.</summary>
    Prepend,
}
