using System.Buffers;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>mg &lt;key&gt; c</c>: the item's CAS token only, without its value (0 on a miss), for the strict
/// HybridCache's check of an in-process copy (docs/hybrid.md, "L1 coherence without Redis: the invalidation log").</summary>
/// <remarks>memcached 1.6.18 gives the win of an item marked stale to any <c>mg</c> that asks for the token: this one
/// cannot act on it, so it goes back through <see cref="Wins"/>, as a touch's does. Its server's failure is thrown
/// whatever <see cref="MemcachedClientOptions.OnServerFailure"/> says: a copy whose server cannot be asked is judged
/// apart from one whose item is gone.</remarks>
internal sealed class CasRequest(MemcachedKey key, Wins wins) : MetaRequest<ulong>
{
    internal override string Operation => "cas_check";

    private protected override string Command => "mg";

    internal override bool FollowsFailurePolicy => false;

    internal override void OnUnanswered() => wins.Unanswered(Server, key);

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteGet(writer, key, value: false, cas: true, Expiration.None, quiet: false, Opaque);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Success:
                ulong cas = reply.GetNumber((byte)'c');
                if ((reply.GetRecacheFlags() & RecacheFlags.Won) != 0)
                {
                    wins.Return(key, cas);
                }

                Complete(cas, "hit");
                return true;
            case MetaReplyCode.Miss:
                Complete(0, "miss");
                return true;
            default:
                return false;
        }
    }
}
