using System.Buffers;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A batch of quiet <c>mg</c>s for one server, ended by <c>mn</c>: only hits (and errors) answer, then <c>MN</c>.
/// A placeholder answers too, and is a miss (<see cref="GetReply"/>).</summary>
/// <remarks>
/// Each <c>mg</c> carries <c>O&lt;index&gt;</c> so a hit is matched to its key without echoing the key; hits come back in
/// request order, so the indexes must increase. An error line stops nothing: the batch reads on to <c>MN</c> (keeping the
/// connection in step) and then fails.
/// </remarks>
internal sealed class MultiGetRequest : MemcachedRequest<GetReply[]>
{
    private readonly IReadOnlyList<MemcachedKey> _keys;
    private readonly GetReply[] _results;
    private readonly bool _pooled;
    private readonly Wins? _wins;
    private long _lastIndex = -1;
    private int _hits;
    private MetaReplyCode _errorCode;
    private byte[]? _errorLine;

    /// <param name="keys">The keys, in the order of their indexes.</param>
    /// <param name="pooled">Whether values may be copied into rented arrays (the caller then releases every reply).</param>
    /// <param name="wins">Where a win a read received and cannot use is handed back (see <see cref="GetRequest"/>).</param>
    internal MultiGetRequest(IReadOnlyList<MemcachedKey> keys, bool pooled = false, Wins? wins = null)
    {
        _keys = keys;
        _pooled = pooled;
        _wins = wins;
        _results = new GetReply[keys.Count];
    }

    internal override string Operation => "get_many";

    internal override int BatchSize => _keys.Count;

    /// <summary>The keys after the last hit read: any of them may have won a stale item's recache right.</summary>
    internal override void OnUnanswered()
    {
        if (_wins is null)
        {
            return;
        }

        for (long i = _lastIndex + 1; i < _keys.Count; i++)
        {
            _wins.Unanswered(Server, _keys[(int)i]);
        }
    }

    internal override void Write(IBufferWriter<byte> writer)
    {
        for (int i = 0; i < _keys.Count; i++)
        {
            MetaWriter.WriteGet(writer, _keys[i], value: true, cas: true, Expiration.None, quiet: true, (uint)i);
        }

        MetaWriter.WriteNoop(writer);
    }

    internal override bool TryParse(ReadOnlySpan<byte> buffer, out int consumed)
    {
        if (!MetaReplyParser.TryRead(buffer, out MetaReply reply, out consumed))
        {
            return false;
        }

        switch (reply.Code)
        {
            case MetaReplyCode.Value:
                long index = (long)reply.GetNumber((byte)'O', ulong.MaxValue);
                if (index <= _lastIndex || index >= _keys.Count)
                {
                    throw new ProtocolViolationException($"a multi-get hit carries opaque O{index}, which is not a later key of the batch of {_keys.Count}");
                }

                _lastIndex = index;
                var result = GetReply.FromValue(reply, ttl: false, _pooled);
                if (result.Won)
                {
                    _wins?.Return(_keys[(int)index], result.Cas);
                }

                if (result.Hit)
                {
                    _results[index] = result;
                    _hits++;
                }

                return false;
            case MetaReplyCode.Noop:
                if (_errorLine is not null)
                {
                    CompleteWithError(_errorCode, _errorLine);
                }
                else
                {
                    Complete(_results, _hits == _keys.Count ? "hit" : _hits == 0 ? "miss" : "partial");
                }

                return true;
            case MetaReplyCode.Error or MetaReplyCode.ClientError or MetaReplyCode.ServerError:
                if (_errorLine is null)
                {
                    _errorCode = reply.Code;
                    _errorLine = reply.Line.ToArray();
                }

                return false;
            default:
                throw new ProtocolViolationException($"\"{reply.LineText}\" is not a reply to a quiet mg batch");
        }
    }
}
