using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>mg &lt;key&gt; v f c</c> whose server failure is thrown whatever <see cref="MemcachedClientOptions.OnServerFailure"/>
/// says: for reads where a miss and an unanswered read mean different things (the HybridCache's invalidation log and tag
/// sequences, docs/hybrid.md).</summary>
internal sealed class CheckedGetRequest(MemcachedKey key) : MetaRequest<GetReply>
{
    internal override string Operation => "get";

    internal override bool FollowsFailurePolicy => false;

    private protected override string Command => "mg";

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteGet(writer, key, value: true, cas: true, Expiration.None, quiet: false, Opaque);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                Complete(GetReply.FromValue(reply, ttl: false, pooled: false), "hit");
                return true;
            case MetaReplyCode.Miss:
                Complete(default, "miss");
                return true;
            default:
                return false;
        }
    }
}
