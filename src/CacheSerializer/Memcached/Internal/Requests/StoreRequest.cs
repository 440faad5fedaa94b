using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>ms</c> in one of its modes (set, add, replace, append, prepend), with an optional CAS check.</summary>
internal sealed class StoreRequest : MemcachedRequest<MemcachedStoreResult>
{
    private readonly MemcachedKey _key;
    private readonly byte _mode;
    private readonly CacheItem _item;
    private readonly long _ttl;
    private readonly ulong _cas;

    internal StoreRequest(MemcachedKey key, byte mode, CacheItem item, long ttl, ulong cas)
    {
        _key = key;
        _mode = mode;
        _item = item;
        _ttl = ttl;
        _cas = cas;
    }

    internal override string Operation => _cas != 0 ? "cas" : _mode switch
    {
        MetaWriter.ModeAdd => "add",
        MetaWriter.ModeReplace => "replace",
        MetaWriter.ModeAppend => "append",
        MetaWriter.ModePrepend => "prepend",
        _ => "set",
    };

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteSet(writer, _key, _mode, _item.Flags, _ttl, _cas, _item.Data.AsSpan(), Opaque);

    internal override bool TryParse(ReadOnlySpan<byte> buffer, out int consumed)
    {
        if (!MetaReplyParser.TryRead(buffer, out MetaReply reply, out consumed))
        {
            return false;
        }

        switch (reply.Code)
        {
            case MetaReplyCode.Success:
                reply.CheckOpaque(Opaque);
                Complete(MemcachedStoreResult.Stored, "stored");
                return true;
            case MetaReplyCode.NotStored:
                reply.CheckOpaque(Opaque);
                Complete(MemcachedStoreResult.NotStored, "not_stored");
                return true;
            case MetaReplyCode.Exists:
                reply.CheckOpaque(Opaque);
                Complete(MemcachedStoreResult.Exists, "exists");
                return true;
            case MetaReplyCode.NotFound:
                reply.CheckOpaque(Opaque);
                Complete(MemcachedStoreResult.NotFound, "not_found");
                return true;
            case MetaReplyCode.ServerError when reply.Line.IndexOf("too large"u8) >= 0:
                // memcached swallows the data block of an oversized ms and stays in step (checked on 1.6.18).
                CompleteWithException(new MemcachedException(MemcachedErrorKind.ValueTooLarge, Server, Operation,
                    $"{Operation} on {Server}: the server refused a value of {_item.Data.Count} bytes (\"{reply.LineText}\"): it is above the server's item size limit (memcached -I, default 1 MiB, which also counts the key and about 50 bytes of item header)."));
                return true;
            case MetaReplyCode.Error or MetaReplyCode.ClientError or MetaReplyCode.ServerError:
                CompleteWithError(reply.LineText);
                return true;
            default:
                throw new ProtocolViolationException($"\"{reply.LineText}\" is not a reply to ms");
        }
    }
}
