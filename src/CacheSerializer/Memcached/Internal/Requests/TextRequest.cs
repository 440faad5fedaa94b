using System.Buffers;
using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>The classic text commands the meta protocol has no form for: <c>stats</c>, <c>flush_all</c>, and <c>mn</c> as a probe.</summary>
internal sealed class TextRequest : MemcachedRequest<IReadOnlyDictionary<string, string>>
{
    private static readonly IReadOnlyDictionary<string, string> Empty = new Dictionary<string, string>();

    private readonly Kind _kind;
    private readonly Dictionary<string, string>? _stats;
    private readonly string? _group;

    private TextRequest(Kind kind, string? group = null)
    {
        _kind = kind;
        _group = group;
        _stats = kind == Kind.Stats ? new Dictionary<string, string>(StringComparer.Ordinal) : null;
    }

    private enum Kind
    {
        Stats,
        FlushAll,
        Noop,
    }

    internal override string Operation => _kind switch
    {
        Kind.Stats => "stats",
        Kind.FlushAll => "flush_all",
        _ => "noop",
    };

    /// <summary>Gets a value indicating whether a server failure may be returned rather than thrown: yes for stats
    /// (the failed server is left out of the result), never for flush_all (a flush that did not happen must be known)
    /// nor for the health probe.</summary>
    internal override bool FollowsFailurePolicy => _kind == Kind.Stats;

    /// <summary><c>stats</c>, or <c>stats &lt;group&gt;</c> (<c>settings</c>, <c>slabs</c>, <c>items</c>, ...: a group answered
    /// with <c>STAT</c> lines and <c>END</c>, as the general one).</summary>
    /// <exception cref="ArgumentException"><paramref name="group"/> is not a word of ASCII letters and underscores.</exception>
    internal static TextRequest Stats(string? group = null)
    {
        if (group is not null && (group.Length == 0 || !group.All(static c => char.IsAsciiLetter(c) || c == '_')))
        {
            throw new ArgumentException($"The stats group \"{group}\" is not a word of ASCII letters and underscores (settings, slabs, items, sizes, conns).", nameof(group));
        }

        return new(Kind.Stats, group);
    }

    internal static TextRequest FlushAll() => new(Kind.FlushAll);

    internal static TextRequest Noop() => new(Kind.Noop);

    internal override void Write(IBufferWriter<byte> writer)
    {
        switch (_kind)
        {
            case Kind.Stats when _group is null:
                MetaWriter.WriteText(writer, "stats"u8);
                break;
            case Kind.Stats:
                MetaWriter.WriteText(writer, Encoding.ASCII.GetBytes("stats " + _group));
                break;
            case Kind.FlushAll:
                MetaWriter.WriteText(writer, "flush_all"u8);
                break;
            default:
                MetaWriter.WriteNoop(writer);
                break;
        }
    }

    internal override bool TryParse(ReadOnlySpan<byte> buffer, out int consumed)
    {
        if (!MetaReplyParser.TryReadLine(buffer, out ReadOnlySpan<byte> line, out consumed))
        {
            return false;
        }

        if (MetaReplyParser.TryParseError(line, out MetaReplyCode error))
        {
            CompleteWithError(error, line);
            return true;
        }

        switch (_kind)
        {
            case Kind.Stats when line.StartsWith("STAT "u8):
                ReadOnlySpan<byte> rest = line[5..];
                int space = rest.IndexOf((byte)' ');
                if (space < 0)
                {
                    throw new ProtocolViolationException("a STAT line has no value");
                }

                _stats![Encoding.ASCII.GetString(rest[..space])] = Encoding.ASCII.GetString(rest[(space + 1)..]);
                return false;
            case Kind.Stats when line.SequenceEqual("END"u8):
                Complete(_stats!, "hit");
                return true;
            case Kind.FlushAll when line.SequenceEqual("OK"u8):
                Complete(Empty, "stored");
                return true;
            case Kind.Noop when line.SequenceEqual("MN"u8):
                Complete(Empty, "hit");
                return true;
            default:
                throw new ProtocolViolationException($"\"{Encoding.ASCII.GetString(line[..Math.Min(line.Length, 64)])}\" is not a reply to {Operation}");
        }
    }
}
