using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>Commands on one key that answer yes or no: delete (<c>md</c>) and touch (<c>mg</c> with <c>T</c>, no value).</summary>
internal sealed class KeyRequest : MetaRequest<bool>
{
    private readonly MemcachedKey _key;
    private readonly long _touchTtl;

    private KeyRequest(MemcachedKey key, long touchTtl)
    {
        _key = key;
        _touchTtl = touchTtl;
    }

    internal override string Operation => _touchTtl >= 0 ? "touch" : "delete";

    private protected override string Command => _touchTtl >= 0 ? "mg" : "md";

    internal static KeyRequest Delete(MemcachedKey key) => new(key, -1);

    internal static KeyRequest Touch(MemcachedKey key, long ttl) => new(key, ttl);

    internal override void Write(IBufferWriter<byte> writer)
    {
        if (_touchTtl >= 0)
        {
            MetaWriter.WriteGet(writer, _key, value: false, cas: false, _touchTtl, quiet: false, Opaque);
        }
        else
        {
            MetaWriter.WriteDelete(writer, _key, Opaque);
        }
    }

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Success:
                Complete(true, _touchTtl >= 0 ? "touched" : "deleted");
                return true;
            case MetaReplyCode.NotFound or MetaReplyCode.Miss:
                // md answers NF on a miss, mg (touch) answers EN; both echo the opaque (memcached 1.6.18).
                Complete(false, "not_found");
                return true;
            default:
                return false;
        }
    }
}
