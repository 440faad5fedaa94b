using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>ms</c> in one of its modes (set, add, replace, append, prepend), with an optional CAS check.</summary>
internal sealed class StoreRequest : MetaRequest<MemcachedStoreResult>
{
    private readonly MemcachedKey _key;
    private readonly StoreMode _mode;
    private readonly CacheItem _item;
    private readonly long _ttl;
    private readonly ulong _cas;
    private readonly bool _returnCas;

    /// <summary>Creates the store.</summary>
    /// <param name="key">The key.</param>
    /// <param name="mode">What to do when the key exists or not.</param>
    /// <param name="item">The flags and bytes to store.</param>
    /// <param name="expiration">When the item expires; null or zero for never (<see cref="Expiration.ToTtl(TimeSpan?, string)"/>).</param>
    /// <param name="cas">Store only if the item's CAS token is this one; 0 for no check.</param>
    /// <param name="returnCas">Ask for the stored item's new CAS token (<see cref="NewCas"/>).</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    internal StoreRequest(MemcachedKey key, StoreMode mode, CacheItem item, TimeSpan? expiration, ulong cas, bool returnCas = false)
    {
        _returnCas = returnCas;
        _key = key;
        _mode = mode;
        _item = item;
        _ttl = Expiration.ToTtl(expiration);
        _cas = cas;
    }

    /// <summary>Gets the stored item's new CAS token, once the reply is read, when it was asked for; 0 otherwise (not stored,
    /// or a server failure under <see cref="ServerFailurePolicy.Miss"/>). The request is not pooled: read it after the call.</summary>
    internal ulong NewCas { get; private set; }

    /// <summary>Gets the size of the value to store.</summary>
    internal int ValueSize => _item.Data.Count;

    internal override string Operation => _cas != 0 ? "cas" : _mode switch
    {
        StoreMode.Add => "add",
        StoreMode.Replace => "replace",
        StoreMode.Append => "append",
        StoreMode.Prepend => "prepend",
        _ => "set",
    };

    internal override MemcachedStoreResult FailureResult => MemcachedStoreResult.ServerFailure;

    private protected override string Command => "ms";

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteSet(writer, _key, _mode, _item.Flags, _ttl, _cas, _item.Data.AsSpan(), Opaque, _returnCas);

    private protected override bool OnReply(in MetaReply reply)
    {
        (MemcachedStoreResult result, string outcome) = reply.Code switch
        {
            MetaReplyCode.Success => (MemcachedStoreResult.Stored, "stored"),
            MetaReplyCode.NotStored => (MemcachedStoreResult.NotStored, "not_stored"),
            MetaReplyCode.Exists => (MemcachedStoreResult.Exists, "exists"),
            MetaReplyCode.NotFound => (MemcachedStoreResult.NotFound, "not_found"),
            _ => ((MemcachedStoreResult)(-1), string.Empty),
        };
        if (outcome.Length == 0)
        {
            return false;
        }

        if (_returnCas && result == MemcachedStoreResult.Stored)
        {
            NewCas = reply.GetNumber((byte)'c');
        }

        Complete(result, outcome);
        return true;
    }

    private protected override MemcachedException ErrorFor(MemcachedErrorKind kind, string line) => kind == MemcachedErrorKind.ValueTooLarge
        // memcached swallows the data block of an oversized ms and stays in step (checked on 1.6.18).
        ? new MemcachedException(MemcachedErrorKind.ValueTooLarge, Server, Operation,
            $"{Operation} on {Server}: the server refused a value of {_item.Data.Count} bytes (\"{line}\"): it is above the server's item size limit (memcached -I, default 1 MiB, which also counts the key and about 50 bytes of item header).")
        : base.ErrorFor(kind, line);
}
