using System.Buffers;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>Commands on one key that answer yes or no: delete (<c>md</c>), invalidate (<c>md ... I</c>: mark stale) and
/// touch (<c>mg</c> with <c>T</c>, no value).</summary>
internal sealed class KeyRequest : MetaRequest<bool>
{
    private readonly MemcachedKey _key;
    private readonly Kind _kind;
    private readonly long _ttl;
    private readonly ulong _cas;
    private readonly Wins? _wins;
    private readonly bool _checked;

    private KeyRequest(MemcachedKey key, Kind kind, long ttl, ulong cas, Wins? wins, bool isChecked = false)
    {
        _key = key;
        _kind = kind;
        _ttl = ttl;
        _cas = cas;
        _wins = wins;
        _checked = isChecked;
    }

    private enum Kind
    {
        Delete,
        Invalidate,
        Touch,
    }

    internal override string Operation => _kind switch
    {
        Kind.Touch => "touch",
        Kind.Invalidate => "invalidate",
        _ => "delete",
    };

    private protected override string Command => _kind == Kind.Touch ? "mg" : "md";

    /// <summary>A touch asks for the CAS token, so it may have won a stale item's recache right.</summary>
    internal override void OnUnanswered()
    {
        if (_kind == Kind.Touch)
        {
            _wins?.Unanswered(Server, _key);
        }
    }

    /// <summary><c>md &lt;key&gt; [C&lt;cas&gt;]</c>: removes the item (only if its CAS token is <paramref name="cas"/>, when not 0).</summary>
    internal static KeyRequest Delete(MemcachedKey key, ulong cas = 0) => new(key, Kind.Delete, Expiration.None, cas, null);

    /// <summary><c>md &lt;key&gt;</c> whose server failure is thrown whatever <see cref="MemcachedClientOptions.OnServerFailure"/>
    /// says: for a delete that must be made again if memcached did not take it (the HybridCache's pending changes).</summary>
    internal static KeyRequest CheckedDelete(MemcachedKey key) => new(key, Kind.Delete, Expiration.None, 0, null, isChecked: true);

    internal override bool FollowsFailurePolicy => !_checked;

    /// <summary><c>md &lt;key&gt; I [T&lt;ttl&gt;] [C&lt;cas&gt;]</c>: marks the item stale, so the next <c>mg</c> wins
    /// (<c>X W</c>) and the others see <c>X Z</c>, for <paramref name="seconds"/> from now.</summary>
    internal static KeyRequest Invalidate(MemcachedKey key, long seconds, ulong cas = 0) => new(key, Kind.Invalidate, seconds, cas, null);

    /// <summary><c>md &lt;key&gt; I C&lt;cas&gt;</c>: marks the item stale, keeping its TTL, if it is still the version read.</summary>
    internal static KeyRequest InvalidateKeepingTtl(MemcachedKey key, ulong cas) => new(key, Kind.Invalidate, Expiration.None, cas, null);

    /// <summary><c>mg &lt;key&gt; c T&lt;ttl&gt;</c>; a win it receives (an item marked stale) goes back through <paramref name="wins"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    internal static KeyRequest Touch(MemcachedKey key, TimeSpan? expiration, Wins? wins = null) =>
        new(key, Kind.Touch, Expiration.ToTtl(expiration), 0, wins);

    internal override void Write(IBufferWriter<byte> writer)
    {
        if (_kind == Kind.Touch)
        {
            MetaWriter.WriteGet(writer, _key, value: false, cas: true, _ttl, quiet: false, Opaque);
        }
        else
        {
            MetaWriter.WriteDelete(writer, _key, Opaque, _cas, _kind == Kind.Invalidate, _ttl);
        }
    }

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Success:
                if (_kind == Kind.Touch && _wins is not null && (reply.GetRecacheFlags() & RecacheFlags.Won) != 0)
                {
                    _wins.Return(_key, reply.GetNumber((byte)'c'));
                }

                Complete(true, _kind switch { Kind.Touch => "touched", Kind.Invalidate => "invalidated", _ => "deleted" });
                return true;
            case MetaReplyCode.NotFound or MetaReplyCode.Miss:
                // md answers NF on a miss, mg (touch) answers EN; both echo the opaque (memcached 1.6.18).
                Complete(false, "not_found");
                return true;
            case MetaReplyCode.Exists when _cas != 0:
                // md with C: the item changed since that CAS token was read (it was stored again or invalidated).
                Complete(false, "exists");
                return true;
            default:
                return false;
        }
    }
}
