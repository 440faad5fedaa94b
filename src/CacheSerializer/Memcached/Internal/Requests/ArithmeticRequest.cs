using System.Buffers;
using System.Buffers.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary><c>ma</c>: increment or decrement, creating the counter with an initial value on a miss when asked.</summary>
internal sealed class ArithmeticRequest : MetaRequest<ulong?>
{
    private readonly MemcachedKey _key;
    private readonly bool _decrement;
    private readonly ulong _delta;
    private readonly ulong? _initial;
    private readonly long _ttl;

    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    internal ArithmeticRequest(MemcachedKey key, bool decrement, ulong delta, ulong? initial, TimeSpan? expiration)
    {
        _key = key;
        _decrement = decrement;
        _delta = delta;
        _initial = initial;
        _ttl = Expiration.ToTtl(expiration);
    }

    internal override string Operation => _decrement ? "decr" : "incr";

    private protected override string Command => "ma";

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteArithmetic(writer, _key, _decrement, _delta, _initial, _ttl, Opaque);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                if (!Utf8Parser.TryParse(reply.Data, out ulong value, out int used) || used != reply.Data.Length)
                {
                    throw new ProtocolViolationException($"the value of an ma reply is not a number ({reply.Data.Length} bytes)");
                }

                Complete(value, "stored");
                return true;
            case MetaReplyCode.NotFound or MetaReplyCode.NotStored:
                Complete(null, "not_found");
                return true;
            default:
                return false;
        }
    }
}
