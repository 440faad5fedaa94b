using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached;

// Reading a hit back into a value: the one way a read deserializes, and what becomes of an item it cannot read.
public sealed partial class MemcachedClient
{
    /// <summary>Deserializes a hit (then gives its rented bytes back), or returns a miss; an item the transcoder cannot
    /// read is a miss or throws, as <see cref="MemcachedClientOptions.OnUnreadableItem"/> says.</summary>
    private MemcachedGetResult<T> Read<T>(in MemcachedKey key, in GetReply reply, bool withCas) => Read<T>(key, reply, withCas, out _);

    /// <summary>As <see cref="Read{T}(in MemcachedKey, in GetReply, bool)"/>; <paramref name="otherBuildCas"/> is the CAS
    /// token of an item another build wrote (another contract of the type, or a type this build does not know), which a
    /// copy of this build may stand in for (docs/client.md, "Rolling deploys"), and 0 otherwise.</summary>
    private MemcachedGetResult<T> Read<T>(in MemcachedKey key, in GetReply reply, bool withCas, out ulong otherBuildCas)
    {
        otherBuildCas = 0;
        if (!reply.Hit)
        {
            return default;
        }

        try
        {
            if (TryRead(key, reply, out T? value, out TranscoderErrorKind reason))
            {
                return new MemcachedGetResult<T>(value, withCas ? reply.Cas : 0);
            }

            otherBuildCas = OtherBuildCas(reason, reply);
            return default;
        }
        finally
        {
            reply.Release();
        }
    }

    /// <summary>The CAS token of an item another build wrote (another contract, a type this build does not know), which
    /// a copy of this build may stand in for; 0 for any other unreadable item, and when unreadable items are deleted.</summary>
    private ulong OtherBuildCas(TranscoderErrorKind reason, in GetReply reply) =>
        reason is TranscoderErrorKind.OtherContract or TranscoderErrorKind.UnknownType && !_settings.DeleteUnreadableItems ? reply.Cas : 0;

    /// <summary>Deserializes a hit; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>, which is
    /// then deleted if unchanged when <see cref="MemcachedClientOptions.DeleteUnreadableItems"/> is on.</summary>
    private bool TryRead<T>(in MemcachedKey key, in GetReply reply, out T? value, out TranscoderErrorKind reason)
    {
        bool delete = _settings.DeleteUnreadableItems && reply.Cas != 0;
        if (_unreadable.TryRead(reply.Item, key, out value, out reason, delete))
        {
            return true;
        }

        if (delete)
        {
            DeleteUnreadable(key, reply.Cas);
        }

        return false;
    }

    /// <summary>Reads this build's copy of a key whose item another build wrote under CAS <paramref name="cas"/>: a hit
    /// while the copy is bound to that very item; otherwise a miss, remembered so that the fill which follows
    /// (<see cref="AddAsync{T}"/>) stores its value as such a copy.</summary>
    private async Task<MemcachedGetResult<T>> ReadCopyAsync<T>(MemcachedKey key, MemcachedNode node, ulong cas, CancellationToken cancellationToken)
    {
        MemcachedKey copyKey = key.CopyFor(BuildCopies.BuildOf(typeof(T)));
        GetReply copy = await ExecuteValueAsync(node, GetRequest.Get(copyKey, pooled: false, _returnWin, _getRequests), cancellationToken).ConfigureAwait(false);
        return TryReadCopy(key, copy, cas, out T? value) ? new MemcachedGetResult<T>(value, 0) : default;
    }

    /// <summary>Reads the reply to a get of this build's copy of <paramref name="key"/> (a miss: no reply at all); false
    /// when there is no copy bound to the item of CAS <paramref name="cas"/>, which is then remembered for the fill.</summary>
    private bool TryReadCopy<T>(in MemcachedKey key, in GetReply copy, ulong cas, out T? value)
    {
        if (copy.Hit && BuildCopies.TryUnwrap(copy.Item, cas, out CacheItem item) && _unreadable.TryRead(item, key, out value, out _))
        {
            return true;
        }

        _copies.MissedOtherBuild(key.Original, typeof(T), cas);
        value = default;
        return false;
    }

    /// <summary>Stores <paramref name="item"/> as this build's copy of <paramref name="key"/>, bound to the item of
    /// another build a read saw under CAS <paramref name="cas"/>, on the key's own server; too large a copy is not stored.</summary>
    private Task<MemcachedStoreResult> StoreCopyAsync(MemcachedKey key, Type type, ulong cas, CacheItem item, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        CacheItem copy = BuildCopies.Wrap(cas, item);
        var request = new StoreRequest(key.CopyFor(BuildCopies.BuildOf(type)), StoreMode.Set, copy, expiration, 0);
        return request.ValueSize > _settings.MaxValueSize
            ? Task.FromResult(MemcachedStoreResult.NotStored)
            : ExecuteAsync(Locate(key), request, cancellationToken);
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
