using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>mg</c> with value, client flags and CAS token: get, get-with-CAS, get-and-touch, and the lease of
/// <see cref="MemcachedClient.GetOrCreateAsync{T}"/> (<c>N</c> and <c>R</c>).</summary>
/// <remarks>
/// Every read asks for the CAS token (<c>c</c>), also when the caller does not want it: a plain read of an item marked
/// stale receives its win (<c>W</c>, memcached 1.6.18 gives it to any <c>mg</c>), which it cannot act on, and hands it
/// back through its pool's <see cref="GetOrCreate.Wins"/> (<c>md &lt;key&gt; I C&lt;cas&gt;</c>) so that a caller of <c>GetOrCreateAsync</c>
/// can refresh the item. A placeholder reads as a miss (<see cref="GetReply"/>).
/// </remarks>
internal sealed class GetRequest : MetaRequest<GetReply>
{
    private readonly GetRequestPool _pool;
    private MemcachedKey _key;
    private bool _cas;
    private bool _ttl;
    private long _touchTtl;
    private bool _pooled;
    private long _vivifyTtl;
    private long _recacheTtl;
    private bool _returnsWin;
    private bool _checked;

    // Who still holds the request: its caller and its connection (2 when sent). Each gives it up once, the caller only
    // after a result and the connection only after publishing it (ReleaseByCaller, ReleaseByConnection); the last one
    // puts it back in the pool. A request that failed (timeout, break, cancellation) is never given up by its caller,
    // so one that a connection, a timer or a cancellation callback might still touch is never reused.
    private int _holders;

    /// <summary>Creates a request of <paramref name="pool"/>, which it goes back to once answered (<see cref="GetRequestPool.Rent"/> only).</summary>
    internal GetRequest(GetRequestPool pool)
    {
        _pool = pool;
    }

    /// <summary><c>mg &lt;key&gt; v f c</c>: a plain read.</summary>
    /// <param name="key">The key.</param>
    /// <param name="pooled">Whether the value may be copied into a rented array (the caller then calls <see cref="GetReply.Release"/>).</param>
    /// <param name="reuse">The client's pool the request comes from and goes back to once answered, and whose
    /// <see cref="GetRequestPool.Wins"/> gets a win this read received and cannot use.</param>
    internal static GetRequest Get(MemcachedKey key, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: false, Expiration.None, ttl: false, pooled, returnsWin: true, Expiration.None, recacheTtl: 0);

    /// <summary>A read for a caller that wants the CAS token (named "gets"; the token is read in any case).</summary>
    internal static GetRequest Gets(MemcachedKey key, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: true, Expiration.None, ttl: false, pooled, returnsWin: true, Expiration.None, recacheTtl: 0);

    /// <summary><c>mg &lt;key&gt; v f c</c> whose server failure is thrown whatever <see cref="MemcachedClientOptions.OnServerFailure"/>
    /// says: for reads where a miss and an unanswered read mean different things (the HybridCache's invalidation log and
    /// tag sequences, docs/hybrid.md).</summary>
    internal static GetRequest Checked(MemcachedKey key, GetRequestPool reuse)
    {
        GetRequest request = Rent(reuse, key, cas: false, Expiration.None, ttl: false, pooled: false, returnsWin: true, Expiration.None, recacheTtl: 0);
        request._checked = true;
        return request;
    }

    /// <summary><c>mg &lt;key&gt; v f c T&lt;ttl&gt;</c>: a read that also sets a new expiration on a hit.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    internal static GetRequest GetAndTouch(MemcachedKey key, TimeSpan? expiration, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: false, Expiration.ToTtl(expiration), ttl: false, pooled, returnsWin: true, Expiration.None, recacheTtl: 0);

    /// <summary><c>mg &lt;key&gt; v f c t</c>: a read that also returns the remaining TTL (<see cref="GetReply.Ttl"/>).</summary>
    internal static GetRequest GetWithTtl(MemcachedKey key, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: false, Expiration.None, ttl: true, pooled, returnsWin: true, Expiration.None, recacheTtl: 0);

    private static GetRequest Rent(GetRequestPool reuse, MemcachedKey key, bool cas, long touchTtl, bool ttl, bool pooled, bool returnsWin, long vivifyTtl, long recacheTtl)
    {
        GetRequest request = reuse.Rent();
        request._key = key;
        request._pooled = pooled;
        request._cas = cas;
        request._touchTtl = touchTtl;
        request._ttl = ttl;
        request._returnsWin = returnsWin;
        request._vivifyTtl = vivifyTtl;
        request._recacheTtl = recacheTtl;
        request._checked = false;
        request._holders = 2;
        return request;
    }

    internal override void ReleaseByCaller() => Release();

    internal override void ReleaseByConnection() => Release();

    private void Release()
    {
        // Below zero only if a holder gave it up twice (a defect): the request is then left to the garbage collector.
        if (Interlocked.Decrement(ref _holders) != 0)
        {
            return;
        }

        ResetForReuse();
        _key = default;
        _pool.Return(this);
    }

    internal override bool FollowsFailurePolicy => !_checked;

    /// <summary>Every read asks for the CAS token, so any may have won a stale item's recache right, and a lease read
    /// (<c>N</c>) a miss's placeholder too.</summary>
    internal override void OnUnanswered() => _pool.Wins?.Unanswered(Server, _key);

    /// <summary>A lease read whose caller has gone hands back the win of a placeholder or a stale entry (a plain read
    /// already did in <see cref="OnReply"/>); an early refresh's win of a fresh entry lapses with it, as
    /// <see cref="GetOrCreate.Leases"/> lets it lapse in the migration phase.</summary>
    private protected override void OnUnclaimed(GetReply result)
    {
        if (!_returnsWin && result.Won && (result.IsPlaceholder || result.Stale))
        {
            _pool.Wins?.Return(_key, result.Cas, placeholder: result.IsPlaceholder);
        }
    }

    internal override string Operation => !_returnsWin ? "get_or_create" : _touchTtl >= 0 ? "gat" : _cas ? "gets" : "get";

    private protected override string Command => "mg";

    /// <summary>The read of <c>GetOrCreateAsync</c>: <c>mg &lt;key&gt; N&lt;vivifyTtl&gt; [R&lt;recacheTtl&gt;] v f c t</c> (the remaining TTL bounds an in-process copy of what it reads).
    /// A miss creates a placeholder and wins (<c>W</c>); a hit whose TTL is below <paramref name="recacheTtl"/>, or an
    /// item marked stale, wins once; every other get of it meanwhile sees <c>Z</c>.</summary>
    internal static GetRequest Lease(MemcachedKey key, long vivifyTtl, long recacheTtl, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: true, Expiration.None, ttl: true, pooled, returnsWin: false, vivifyTtl, recacheTtl);

    /// <summary>The read of a value key by <c>GetOrCreateAsync</c> in the migration phase: <c>mg &lt;key&gt; [R&lt;recacheTtl&gt;] v f c t</c>,
    /// never <c>N</c>, whose placeholder an EnyimMemcachedCore reader would take for a value (docs/client.md, "In the
    /// migration phase"). A hit whose TTL is below <paramref name="recacheTtl"/> wins once, as with <see cref="Lease"/>.</summary>
    internal static GetRequest Refresh(MemcachedKey key, long recacheTtl, bool pooled, GetRequestPool reuse) =>
        Rent(reuse, key, cas: true, Expiration.None, ttl: true, pooled, returnsWin: false, Expiration.None, recacheTtl);

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteGet(writer, _key, value: true, cas: true, _touchTtl, quiet: false, Opaque, _ttl, _vivifyTtl, _recacheTtl);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                var result = GetReply.FromValue(reply, _ttl, _pooled);
                if (result.Won && _returnsWin)
                {
                    _pool.Wins?.Return(_key, result.Cas);
                }

                Complete(result, _vivifyTtl < 0 ? (result.Hit ? "hit" : "miss")
                    : result.Won ? "won"
                    : result.IsPlaceholder ? "locked"
                    : result.Stale ? "stale"
                    : "hit");
                return true;
            case MetaReplyCode.Miss:
                Complete(default, "miss");
                return true;
            default:
                return false;
        }
    }
}
