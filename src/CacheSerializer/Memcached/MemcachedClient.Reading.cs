using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached;

// Reading a hit back into a value: the one way a read deserializes, and what becomes of an item it cannot read.
public sealed partial class MemcachedClient
{
    /// <summary>Deserializes a hit (then gives its rented bytes back), or returns a miss; an item the transcoder cannot
    /// read is a miss or throws, as <see cref="MemcachedClientOptions.OnUnreadableItem"/> says.</summary>
    private MemcachedGetResult<T> Read<T>(in MemcachedKey key, in GetReply reply, bool withCas)
    {
        if (!reply.Hit)
        {
            return default;
        }

        try
        {
            return TryRead(key, reply, out T? value) ? new MemcachedGetResult<T>(value, withCas ? reply.Cas : 0) : default;
        }
        finally
        {
            reply.Release();
        }
    }

    /// <summary>Deserializes a hit; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>, which is
    /// then deleted if unchanged when <see cref="MemcachedClientOptions.DeleteUnreadableItems"/> is on.</summary>
    private bool TryRead<T>(in MemcachedKey key, in GetReply reply, out T? value)
    {
        bool delete = _settings.DeleteUnreadableItems && reply.Cas != 0;
        if (_unreadable.TryRead(reply.Item, key, out value, delete))
        {
            return true;
        }

        if (delete)
        {
            DeleteUnreadable(key, reply.Cas);
        }

        return false;
    }

    /// <summary>Deletes an unreadable item in the background, only if its CAS token is still the one read
    /// (<c>md &lt;key&gt; C&lt;cas&gt;</c>: memcached 1.6.18 answers <c>EX</c> and keeps the item when it changed), so a
    /// value another client stored since is never removed.</summary>
    private void DeleteUnreadable(MemcachedKey key, ulong cas) =>
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Client.DeleteUnreadableAsync(s.Key, s.Cas), (Client: this, Key: key, Cas: cas), preferLocal: false);

    private async Task DeleteUnreadableAsync(MemcachedKey key, ulong cas)
    {
        bool deleted = false;
        try
        {
            if (BeforeUnreadableDelete is { } hook)
            {
                await hook(key.Original).ConfigureAwait(false);
            }

            deleted = await ExecuteValueAsync(Locate(key), KeyRequest.Delete(key, cas), CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is MemcachedException or ObjectDisposedException)
        {
            // Best effort: the item then stays until it expires or the key is stored again.
        }
        finally
        {
            UnreadableDeleted?.Invoke(key.Original, deleted);
        }
    }

    /// <summary>Gets or sets what runs before an unreadable item is deleted (for tests: a writer racing the delete).</summary>
    internal Func<string, Task>? BeforeUnreadableDelete { get; set; }

    /// <summary>Gets or sets what is told each unreadable item's delete and whether it removed the item (for tests).</summary>
    internal Action<string, bool>? UnreadableDeleted { get; set; }

    internal Task<MemcachedStoreResult> StoreAsync(StoreMode mode, string key, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken) =>
        StoreAsync(mode, _settings.Key(key), item, expiration, cas, cancellationToken);
}
