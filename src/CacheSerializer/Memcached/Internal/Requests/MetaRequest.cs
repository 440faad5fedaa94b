using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A single-key meta command (<c>mg</c>, <c>ms</c>, <c>md</c>, <c>ma</c>): one reply line (and, for <c>VA</c>, its
/// data block) that echoes the request's opaque.</summary>
/// <remarks>
/// The opening every such reply shares lives here once: read a whole reply, turn an error line into the call's exception,
/// check the opaque, and only then let the command read its code. Issue 17's meta flags (win, stale) are read by the
/// command in <see cref="OnReply"/>, from the reply's return flags.
/// </remarks>
internal abstract class MetaRequest<TResult> : MemcachedRequest<TResult>
{
    /// <summary>Gets the command's name on the wire, for the message of a reply that does not fit it.</summary>
    private protected abstract string Command { get; }

    internal sealed override bool TryParse(ReadOnlySpan<byte> buffer, out int consumed)
    {
        if (!MetaReplyParser.TryRead(buffer, out MetaReply reply, out consumed))
        {
            return false;
        }

        if (reply.IsError)
        {
            // Error lines carry no opaque: memcached answers them in order, and stays in step (checked on 1.6.18).
            CompleteWithError(reply.Code, reply.Line);
            return true;
        }

        reply.CheckOpaque(Opaque);
        if (!OnReply(reply))
        {
            throw new ProtocolViolationException($"\"{reply.LineText}\" is not a reply to {Command}");
        }

        return true;
    }

    /// <summary>Completes the call from a reply that is not an error and carries the request's opaque.</summary>
    /// <returns>False when the reply's code is not one this command can get (a protocol violation).</returns>
    private protected abstract bool OnReply(in MetaReply reply);
}
