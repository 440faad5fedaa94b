using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>How a lease's entry holds its value: the item a value is stored as, how an item is read back (and why not,
/// which tells another build's item from a corrupt one), and the build whose copies stand in for another build's items
/// (docs/client.md, "Rolling deploys"). This one is <c>GetOrCreateAsync</c>'s: the client's transcoder, the copies of the
/// value's type. The HybridCache's wraps the value in its envelope and overrides it, so that the lease learns the
/// value's contract from inside the envelope and keeps copies of HybridCache entries too.</summary>
/// <typeparam name="T">The type the lease returns.</typeparam>
internal class EntryFormat<T>
{
    /// <summary>The client's transcoder, for <c>GetOrCreateAsync</c>.</summary>
    internal static readonly EntryFormat<T> Transcoded = new();

    /// <summary>Gets the build whose copies this entry's callers read and fill beside another build's item.</summary>
    internal virtual uint Build => CopyFormat.BuildOf(typeof(T));

    /// <summary>The item a value is stored as.</summary>
    internal virtual CacheItem Serialize(MemcachedEngine engine, T value) => engine.Transcoder.Serialize(value);

    /// <summary>Reads an item; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>, with why in
    /// <paramref name="reason"/> (another contract or an unknown type is another build's item). <paramref name="cas"/> is
    /// the CAS token of the key's item the value stands for (for a build copy, the item it is bound to): any change of
    /// the key changes it. <paramref name="ttl"/> is the item's remaining TTL in seconds as the read returned it (-1: none
    /// or not asked), which bounds an in-process copy of the value.</summary>
    internal virtual bool TryRead(MemcachedEngine engine, CacheItem item, in MemcachedKey key, ulong cas, long ttl, out T value, out TranscoderErrorKind reason)
    {
        bool read = engine.Items.TryRead(item, key, out T? found, out reason);
        value = found!;
        return read;
    }

    /// <summary>The value a caller that joined another's call gets: the same instance if <typeparamref name="T"/> is
    /// immutable, else its own copy read from the same item, so that no two requests ever hold one mutable object.</summary>
    internal virtual T ForJoined(MemcachedEngine engine, T value, CacheItem item) =>
        ImmutableType<T>.Value ? value : engine.Transcoder.Deserialize<T>(item)!;
}
