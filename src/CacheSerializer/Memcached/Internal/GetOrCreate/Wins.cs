using System.Collections.Concurrent;
using System.Text;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>Hands back the wins that a read received and cannot act on, so that a caller of <c>GetOrCreateAsync</c>
/// elsewhere in the farm can refresh the item (docs/client.md, "GetOrCreateAsync").</summary>
/// <remarks>
/// <para>memcached 1.6.18 gives the win (<c>W</c>) of an item marked stale to any <c>mg</c> that asks for the CAS
/// token, a plain get or touch included. The requests that may receive one (<see cref="GetRequest"/>,
/// <see cref="MultiGetRequest"/>, a touch) give it here from the connection's read thread, also when their caller has
/// gone (a cancelled read), so the win never lapses unused; so does a lease read whose caller has gone
/// (<see cref="GetRequest"/>'s unclaimed reply).</para>
/// <para>A read that was written and never answered, because the client closed its connection (a timeout, the server
/// marked down), may have won too: a frozen memcached runs the reads in its socket once it runs again, creates the
/// placeholders and sends the wins to a closed connection. Until such a win is handed back, every caller of the key in
/// the farm waits for a factory no one runs, up to its <c>LockTimeout</c>. So the keys of those reads are kept
/// (<see cref="Unanswered"/>), and when their server is marked up again each is read once: a placeholder or a stale
/// entry whose win was sent is released as its winner would release it (<see cref="ReleaseAsync(MemcachedKey, ulong, bool)"/>), under the CAS
/// token read. That read cannot tell a lost win from one another caller received since the server came back: that
/// caller's store then loses (<c>NF</c>, <c>EX</c>), and the key costs one more factory call instead of a
/// <c>LockTimeout</c> for every caller.</para>
/// </remarks>
internal sealed class Wins(MemcachedEngine engine)
{
    /// <summary>The most keys of unanswered reads kept; beyond it, a lost win lapses with its item (a placeholder lives
    /// <c>LockTimeout</c> + 1 s).</summary>
    internal const int MaxUnanswered = 10_000;

    // The keys of reads written and never answered, by server and key token, until their server is back.
    private readonly ConcurrentDictionary<(string Server, string Wire), MemcachedKey> _unanswered = new();

    /// <summary>Hands back a win: on the thread pool, since this is called on a connection's read thread.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cas">The CAS token the win came with.</param>
    /// <param name="placeholder">Whether the win is a miss's placeholder (deleted) rather than a stale entry's (marked stale again).</param>
    internal void Return(MemcachedKey key, ulong cas, bool placeholder = false) =>
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Wins.ReleaseAsync(s.Key, s.Cas, s.Placeholder), (Wins: this, Key: key, Cas: cas, Placeholder: placeholder), preferLocal: false);

    /// <summary>Releases a win: deletes this caller's placeholder, or marks the stale item stale again (<c>md I</c> clears
    /// its win), in both cases only if its CAS token is still the one read, so a value stored since is never touched.</summary>
    internal Task ReleaseAsync(MemcachedKey key, ulong cas, bool placeholder) => ReleaseAsync(engine.Locate(key), key, cas, placeholder);

    /// <summary>Keeps the key of a read that may have won and will never be answered (the client closed its connection to
    /// <paramref name="server"/>), until that server is marked up again (<see cref="OnServerUp"/>).</summary>
    internal void Unanswered(string server, MemcachedKey key)
    {
        if (_unanswered.Count < MaxUnanswered)
        {
            _unanswered.TryAdd((server, Encoding.ASCII.GetString(key.Wire)), key);
        }
    }

    /// <summary>A server is marked up: releases, on the thread pool, the wins its unanswered reads may have received.</summary>
    internal void OnServerUp(MemcachedNode node)
    {
        if (!_unanswered.IsEmpty)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Wins.RepairAsync(s.Node), (Wins: this, Node: node), preferLocal: false);
        }
    }

    private async Task RepairAsync(MemcachedNode node)
    {
        var repairs = new List<Task>();
        foreach (KeyValuePair<(string Server, string Wire), MemcachedKey> entry in _unanswered)
        {
            if (entry.Key.Server == node.Name && _unanswered.TryRemove(entry.Key, out _))
            {
                repairs.Add(RepairAsync(node, entry.Key, entry.Value));
            }
        }

        await Task.WhenAll(repairs).ConfigureAwait(false);
    }

    /// <summary>Reads the key once on the server its read went to: a placeholder or stale entry whose win was sent
    /// (<c>Z</c>) is released under the CAS token read; anything else was never won, or was stored since. A read that
    /// fails keeps the key for the server's next recovery.</summary>
    private async Task RepairAsync(MemcachedNode node, (string Server, string Wire) id, MemcachedKey key)
    {
        GetReply reply;
        try
        {
            reply = await engine.ExecuteValueAsync(node, GetRequest.Checked(key, engine.GetRequests), CancellationToken.None).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            if (_unanswered.Count < MaxUnanswered)
            {
                _unanswered.TryAdd(id, key);
            }

            return;
        }
        catch (ObjectDisposedException)
        {
            return;
        }

        if ((reply.Recache & RecacheFlags.WinSent) != 0 && (reply.IsPlaceholder || reply.Stale))
        {
            await ReleaseAsync(node, key, reply.Cas, reply.IsPlaceholder).ConfigureAwait(false);
        }
    }

    private async Task ReleaseAsync(MemcachedNode node, MemcachedKey key, ulong cas, bool placeholder)
    {
        try
        {
            KeyRequest release = placeholder ? KeyRequest.Delete(key, cas) : KeyRequest.InvalidateKeepingTtl(key, cas);
            await engine.ExecuteValueAsync(node, release, CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is MemcachedException or ObjectDisposedException)
        {
            // Best effort: the win then lapses with its item's TTL (the placeholder's is LockTimeout plus a second).
        }
    }
}
