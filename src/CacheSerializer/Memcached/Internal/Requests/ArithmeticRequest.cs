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
    private readonly ulong _cas;
    private readonly bool _returnCas;

    /// <param name="key">The counter's key.</param>
    /// <param name="decrement">Subtract instead of add.</param>
    /// <param name="delta">The amount.</param>
    /// <param name="initial">The value to create a missing counter with; null to leave it missing.</param>
    /// <param name="expiration">The expiration of a counter created on a miss.</param>
    /// <param name="cas">Change the counter only if its CAS token is this one (else <see cref="CasMismatch"/>); 0 for no check.</param>
    /// <param name="returnCas">Ask for the counter's new CAS token (<see cref="NewCas"/>).</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="expiration"/> is negative.</exception>
    internal ArithmeticRequest(MemcachedKey key, bool decrement, ulong delta, ulong? initial, TimeSpan? expiration, ulong cas = 0, bool returnCas = false)
    {
        _cas = cas;
        _returnCas = returnCas;
        _key = key;
        _decrement = decrement;
        _delta = delta;
        _initial = initial;
        _ttl = Expiration.ToTtl(expiration);
    }

    /// <summary>Gets the counter's new CAS token once the reply is read, when it was asked for and the counter changed; 0
    /// otherwise. The request is not pooled: read it after the call.</summary>
    internal ulong NewCas { get; private set; }

    /// <summary>Gets a value indicating whether the counter was left unchanged because its CAS token was not the one given (<c>EX</c>).</summary>
    internal bool CasMismatch { get; private set; }

    internal override string Operation => _decrement ? "decr" : "incr";

    private protected override string Command => "ma";

    internal override void Write(IBufferWriter<byte> writer) =>
        MetaWriter.WriteArithmetic(writer, _key, _decrement, _delta, _initial, _ttl, Opaque, _cas, _returnCas);

    private protected override bool OnReply(in MetaReply reply)
    {
        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                if (!Utf8Parser.TryParse(reply.Data, out ulong value, out int used) || used != reply.Data.Length)
                {
                    throw new ProtocolViolationException($"the value of an ma reply is not a number ({reply.Data.Length} bytes)");
                }

                if (_returnCas)
                {
                    NewCas = reply.GetNumber((byte)'c');
                }

                Complete(value, "stored");
                return true;
            case MetaReplyCode.Exists when _cas != 0:
                CasMismatch = true;
                Complete(null, "exists");
                return true;
            case MetaReplyCode.NotFound or MetaReplyCode.NotStored:
                Complete(null, "not_found");
                return true;
            default:
                return false;
        }
    }
}
