using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>mg</c> with value and client flags: get, get-with-CAS, get-and-touch.</summary>
internal sealed class GetRequest : MetaRequest<GetReply>
{
    private readonly MemcachedKey _key;
    private readonly bool _cas;
    private readonly bool _ttl;
    private readonly long _touchTtl;

    internal GetRequest(MemcachedKey key, bool cas, long touchTtl, bool ttl = false)
    {
        _key = key;
        _cas = cas;
        _touchTtl = touchTtl;
        _ttl = ttl;
    }

    internal override string Operation => _touchTtl >= 0 ? "gat" : _cas ? "gets" : "get";

    private protected override string Command => "mg";

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteGet(writer, _key, value: true, _cas, _touchTtl, quiet: false, Opaque, _ttl);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                var item = new CacheItem(reply.GetFlags(), new ArraySegment<byte>(reply.Data.ToArray()));
                Complete(new GetReply(item, reply.GetNumber((byte)'c'), _ttl ? reply.GetTtl() : -1), "hit");
                return true;
            case MetaReplyCode.Miss:
                Complete(default, "miss");
                return true;
            default:
                return false;
        }
    }
}
