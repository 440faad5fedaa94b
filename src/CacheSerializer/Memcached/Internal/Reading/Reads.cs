using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Reading;

/// <summary>The read path: a key's item read and turned back into a value (<see cref="ItemReader"/>), with what becomes
/// of an item the transcoder cannot read (a miss, deleted if asked, or this build's copy read instead).</summary>
internal sealed partial class Reads(MemcachedEngine engine)
{
    /// <summary>Gets or sets what runs before an unreadable item is deleted (for tests: a writer racing the delete).</summary>
    internal Func<string, Task>? BeforeUnreadableDelete { get; set; }

    /// <summary>Gets or sets what is told each unreadable item's delete and whether it removed the item (for tests).</summary>
    internal Action<string, bool>? UnreadableDeleted { get; set; }

    /// <summary>Reads a key; another build's item is answered by this build's copy beside it, when one is bound to it.</summary>
    /// <remarks>The copy is read with a request of the same kind as the key's, so the state machine holds one awaiter: a
    /// read costs what it cost before build copies (docs/benchmarks.md, "Build copies when contracts agree").</remarks>
    internal async Task<MemcachedGetResult<T>> GetAsync<T>(MemcachedKey key, CancellationToken cancellationToken)
    {
        GetReply reply = await engine.ExecuteValueAsync(engine.Locate(key), GetRequest.Get(key, engine.Settings.PooledReads, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        MemcachedGetResult<T> result = Read<T>(key, reply, withCas: false, out ulong otherBuildCas);
        if (otherBuildCas == 0)
        {
            return result;
        }

        GetReply copy = await engine.ExecuteValueAsync(engine.Locate(key), engine.Copies.CopyRequest<T>(key), cancellationToken).ConfigureAwait(false);
        return engine.Copies.ReadCopy<T>(key, copy, otherBuildCas);
    }

    /// <summary>Reads a key with its CAS token (no build copies: a copy's CAS is not the key's).</summary>
    internal async Task<MemcachedGetResult<T>> GetWithCasAsync<T>(string key, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = engine.Key(key);
        GetReply reply = await engine.ExecuteValueAsync(engine.Locate(encoded), GetRequest.Gets(encoded, engine.Settings.PooledReads, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: true, out _);
    }

    /// <summary>Reads a key and sets a new expiration on a hit.</summary>
    internal async Task<MemcachedGetResult<T>> GetAndTouchAsync<T>(string key, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = engine.Key(key);
        GetReply reply = await engine.ExecuteValueAsync(engine.Locate(encoded), GetRequest.GetAndTouch(encoded, expiration, engine.Settings.PooledReads, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        return Read<T>(encoded, reply, withCas: false, out _);
    }

    /// <summary>Reads an item as it is stored, with its remaining TTL when <paramref name="ttl"/> is set. With
    /// <paramref name="pooled"/> its bytes may be rented: the caller must call <see cref="GetReply.Release"/> once it has
    /// read them, and keep no reference to them.</summary>
    internal Task<GetReply> GetRawAsync(string key, CancellationToken cancellationToken, bool ttl = false, bool pooled = false)
    {
        MemcachedKey encoded = engine.Key(key);
        bool rent = pooled && engine.Settings.PooledReads;
        GetRequest request = ttl ? GetRequest.GetWithTtl(encoded, rent, engine.GetRequests) : GetRequest.Get(encoded, rent, engine.GetRequests);
        return engine.ExecuteAsync(encoded, request, cancellationToken);
    }

    /// <summary>Deserializes a hit (then gives its rented bytes back), or returns a miss; an item the transcoder cannot
    /// read is a miss or throws, as <see cref="MemcachedClientOptions.OnUnreadableItem"/> says.
    /// <paramref name="otherBuildCas"/> is the CAS token of an item another build wrote (another contract of the type, or
    /// a type this build does not know), which a copy of this build may stand in for (docs/client.md, "Rolling
    /// deploys"), and 0 otherwise.</summary>
    internal MemcachedGetResult<T> Read<T>(in MemcachedKey key, in GetReply reply, bool withCas, out ulong otherBuildCas)
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
    internal ulong OtherBuildCas(TranscoderErrorKind reason, in GetReply reply) =>
        reason is TranscoderErrorKind.OtherContract or TranscoderErrorKind.UnknownType && !engine.Settings.DeleteUnreadableItems ? reply.Cas : 0;

    /// <summary>Deserializes a hit; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>, which is
    /// then deleted if unchanged when <see cref="MemcachedClientOptions.DeleteUnreadableItems"/> is on.</summary>
    internal bool TryRead<T>(in MemcachedKey key, in GetReply reply, out T? value, out TranscoderErrorKind reason)
    {
        bool delete = engine.Settings.DeleteUnreadableItems && reply.Cas != 0;
        if (engine.Items.TryRead(reply.Item, key, out value, out reason, delete))
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
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Reads.DeleteUnreadableAsync(s.Key, s.Cas), (Reads: this, Key: key, Cas: cas), preferLocal: false);

    private async Task DeleteUnreadableAsync(MemcachedKey key, ulong cas)
    {
        bool deleted = false;
        try
        {
            if (BeforeUnreadableDelete is { } hook)
            {
                await hook(key.Original).ConfigureAwait(false);
            }

            deleted = await engine.ExecuteValueAsync(engine.Locate(key), KeyRequest.Delete(key, cas), CancellationToken.None).ConfigureAwait(false);
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
}
