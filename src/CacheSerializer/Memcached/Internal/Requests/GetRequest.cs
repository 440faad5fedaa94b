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
    private readonly bool _pooled;

    /// <param name="key">The key.</param>
    /// <param name="cas">Whether to ask for the CAS token.</param>
    /// <param name="touchTtl">A TTL to set on a hit (get-and-touch), or -1.</param>
    /// <param name="ttl">Whether to ask for the remaining TTL.</param>
    /// <param name="pooled">Whether the value may be copied into a rented array (the caller then calls <see cref="GetReply.Release"/>).</param>
    internal GetRequest(MemcachedKey key, bool cas, long touchTtl, bool ttl = false, bool pooled = false)
    {
        _key = key;
        _pooled = pooled;
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
                var item = new CacheItem(reply.GetFlags(), GetReply.Copy(reply.Data, _pooled));
                Complete(new GetReply(item, reply.GetNumber((byte)'c'), _ttl ? reply.GetTtl() : -1, _pooled), "hit");
                return true;
            case MetaReplyCode.Miss:
                Complete(default, "miss");
                return true;
            default:
                return false;
        }
    }
}
