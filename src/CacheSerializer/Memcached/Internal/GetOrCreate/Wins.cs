using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>Hands back the wins that a read received and cannot act on, so that a caller of <c>GetOrCreateAsync</c>
/// elsewhere in the farm can refresh the item (docs/client.md, "GetOrCreateAsync").</summary>
/// <remarks>memcached 1.6.18 gives the win (<c>W</c>) of an item marked stale to any <c>mg</c> that asks for the CAS
/// token, a plain get or touch included. The requests that may receive one (<see cref="GetRequest"/>,
/// <see cref="MultiGetRequest"/>, a touch) give it here from the connection's read thread, also when their caller has
/// gone (a cancelled read), so the win never lapses unused.</remarks>
internal sealed class Wins(MemcachedEngine engine)
{
    /// <summary>Hands back a win: on the thread pool, since this is called on a connection's read thread.</summary>
    internal void Return(MemcachedKey key, ulong cas) =>
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Wins.ReleaseAsync(s.Key, s.Cas, placeholder: false), (Wins: this, Key: key, Cas: cas), preferLocal: false);

    /// <summary>Releases a win: deletes this caller's placeholder, or marks the stale item stale again (<c>md I</c> clears
    /// its win), in both cases only if its CAS token is still the one read, so a value stored since is never touched.</summary>
    internal async Task ReleaseAsync(MemcachedKey key, ulong cas, bool placeholder)
    {
        try
        {
            KeyRequest release = placeholder ? KeyRequest.Delete(key, cas) : KeyRequest.InvalidateKeepingTtl(key, cas);
            await engine.ExecuteValueAsync(engine.Locate(key), release, CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is MemcachedException or ObjectDisposedException)
        {
            // Best effort: the win then lapses with its item's TTL (the placeholder's is LockTimeout plus a second).
        }
    }
}
