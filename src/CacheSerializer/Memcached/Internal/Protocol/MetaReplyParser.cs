using System.Buffers.Text;

namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>Parses meta replies and text lines out of a byte buffer; pure code, no socket.</summary>
/// <remarks>
/// Each method returns false when the buffer does not yet hold a whole reply (the caller reads more and retries) and
/// throws <see cref="ProtocolViolationException"/> when the bytes cannot be a reply, so a connection out of step is
/// detected and closed rather than read on.
/// </remarks>
internal static class MetaReplyParser
{
    /// <summary>Reply lines are short (a code, a size and a few flags; a key echo at most 250 bytes): anything longer is garbage.</summary>
    internal const int MaxLineLength = 8192;

    /// <summary>The largest item memcached stores (its -I limit tops out at 1 GiB): the bound of every value length, and
    /// of <see cref="MemcachedClientOptions.MaxValueSize"/>.</summary>
    internal const int MaxDataLength = 1024 * 1024 * 1024;

    /// <summary>How far a reply's value may exceed <see cref="MemcachedClientOptions.MaxValueSize"/> before the
    /// connection calls it a protocol error: the client never stores more, so a larger claim is garbage or another
    /// writer's item, and is refused before it is allocated.</summary>
    internal const int ReplyMargin = 1024;

    /// <summary>Reads one text line (without CRLF).</summary>
    internal static bool TryReadLine(ReadOnlySpan<byte> buffer, out ReadOnlySpan<byte> line, out int consumed)
    {
        int lf = buffer.Length > MaxLineLength + 2 ? buffer[..(MaxLineLength + 2)].IndexOf((byte)'\n') : buffer.IndexOf((byte)'\n');
        if (lf < 0)
        {
            if (buffer.Length > MaxLineLength + 1)
            {
                throw new ProtocolViolationException($"a reply line is longer than {MaxLineLength} bytes");
            }

            line = default;
            consumed = 0;
            return false;
        }

        if (lf == 0 || buffer[lf - 1] != (byte)'\r')
        {
            throw new ProtocolViolationException("a reply line does not end with CRLF");
        }

        line = buffer[..(lf - 1)];
        consumed = lf + 1;
        return true;
    }

    /// <summary>Reads one meta reply: a line and, for <c>VA</c>, its data block and CRLF.</summary>
    internal static bool TryRead(ReadOnlySpan<byte> buffer, out MetaReply reply, out int consumed)
    {
        reply = default;
        if (!TryReadLine(buffer, out ReadOnlySpan<byte> line, out int lineLength))
        {
            consumed = 0;
            return false;
        }

        MetaReplyCode code = ParseCode(line);
        ReadOnlySpan<byte> flags = line.Length > 3 ? line[3..] : default;
        if (code != MetaReplyCode.Value)
        {
            reply = new MetaReply(code, line, code is MetaReplyCode.Error or MetaReplyCode.ClientError or MetaReplyCode.ServerError ? default : flags, default);
            consumed = lineLength;
            return true;
        }

        // VA <size> <flags>*
        int space = flags.IndexOf((byte)' ');
        ReadOnlySpan<byte> sizeText = space < 0 ? flags : flags[..space];
        if (!Utf8Parser.TryParse(sizeText, out int size, out int used) || used != sizeText.Length || size < 0 || size > MaxDataLength)
        {
            throw new ProtocolViolationException("a VA reply has no valid size");
        }

        int total = lineLength + size + 2;
        if (buffer.Length < total)
        {
            consumed = 0;
            return false;
        }

        if (buffer[lineLength + size] != (byte)'\r' || buffer[lineLength + size + 1] != (byte)'\n')
        {
            throw new ProtocolViolationException($"the {size}-byte data block of a VA reply is not followed by CRLF");
        }

        reply = new MetaReply(code, line, space < 0 ? default : flags[(space + 1)..], buffer.Slice(lineLength, size));
        consumed = total;
        return true;
    }

    /// <summary>How many bytes the reply starting the buffer needs in all, when it is a <c>VA</c> whose line is complete;
    /// otherwise 0.</summary>
    /// <remarks>The connection asks this before it hands bytes to a request and before it grows its buffer, so a reply
    /// that merely claims a huge value is refused before anything is allocated for it.</remarks>
    /// <exception cref="ProtocolViolationException">The declared length is above <paramref name="maxDataLength"/>.</exception>
    internal static int RequiredLength(ReadOnlySpan<byte> buffer, int maxDataLength)
    {
        if (buffer.Length < 3 || buffer[0] != (byte)'V' || buffer[1] != (byte)'A' || buffer[2] != (byte)' ')
        {
            return 0;
        }

        int lf = buffer[..Math.Min(buffer.Length, MaxLineLength + 2)].IndexOf((byte)'\n');
        if (lf < 0 || !Utf8Parser.TryParse(buffer[3..lf], out long size, out _) || size < 0)
        {
            return 0; // an incomplete line waits for more bytes; a malformed one is TryRead's to report
        }

        if (size > maxDataLength)
        {
            throw new ProtocolViolationException($"a VA reply declares a {size}-byte value, above the {maxDataLength}-byte limit of this connection (MemcachedClientOptions.MaxValueSize plus {ReplyMargin} bytes); nothing was read into memory for it");
        }

        return lf + 1 + (int)size + 2;
    }

    /// <summary>Reads an error line, the answer any command (meta or text) may get: <c>ERROR</c>, <c>CLIENT_ERROR &lt;text&gt;</c>
    /// or <c>SERVER_ERROR &lt;text&gt;</c>.</summary>
    /// <returns>False when the line is not an error.</returns>
    internal static bool TryParseError(ReadOnlySpan<byte> line, out MetaReplyCode code)
    {
        code = line.SequenceEqual("ERROR"u8) || line.StartsWith("ERROR "u8) ? MetaReplyCode.Error
            : line.StartsWith("CLIENT_ERROR"u8) ? MetaReplyCode.ClientError
            : line.StartsWith("SERVER_ERROR"u8) ? MetaReplyCode.ServerError
            : MetaReplyCode.Value;
        return code != MetaReplyCode.Value;
    }

    private static MetaReplyCode ParseCode(ReadOnlySpan<byte> line)
    {
        if (line.Length == 2 || (line.Length > 2 && line[2] == (byte)' '))
        {
            switch ((line[0] << 8) | line[1])
            {
                case ('V' << 8) | 'A' when line.Length > 3:
                    return MetaReplyCode.Value;
                case ('H' << 8) | 'D':
                    return MetaReplyCode.Success;
                case ('E' << 8) | 'N':
                    return MetaReplyCode.Miss;
                case ('N' << 8) | 'F':
                    return MetaReplyCode.NotFound;
                case ('N' << 8) | 'S':
                    return MetaReplyCode.NotStored;
                case ('E' << 8) | 'X':
                    return MetaReplyCode.Exists;
                case ('M' << 8) | 'N':
                    return MetaReplyCode.Noop;
            }
        }

        if (TryParseError(line, out MetaReplyCode error))
        {
            return error;
        }

        throw new ProtocolViolationException($"\"{System.Text.Encoding.ASCII.GetString(line[..Math.Min(line.Length, 64)])}\" is not a meta reply");
    }
}
