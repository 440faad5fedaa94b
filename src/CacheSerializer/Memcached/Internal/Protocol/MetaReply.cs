using System.Buffers.Text;
using System.Text;

namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>One parsed meta reply: its code, its return flags and, for <c>VA</c>, its data block (slices of the read buffer).</summary>
internal readonly ref struct MetaReply
{
    internal MetaReply(MetaReplyCode code, ReadOnlySpan<byte> line, ReadOnlySpan<byte> flags, ReadOnlySpan<byte> data)
    {
        Code = code;
        Line = line;
        Flags = flags;
        Data = data;
    }

    internal MetaReplyCode Code { get; }

    /// <summary>Gets the whole reply line without its CRLF.</summary>
    internal ReadOnlySpan<byte> Line { get; }

    /// <summary>Gets the return flags part of the line (after the code and, for VA, the size).</summary>
    internal ReadOnlySpan<byte> Flags { get; }

    /// <summary>Gets the data block of a VA reply.</summary>
    internal ReadOnlySpan<byte> Data { get; }

    internal bool IsError => Code is MetaReplyCode.Error or MetaReplyCode.ClientError or MetaReplyCode.ServerError;

    internal string LineText => Encoding.ASCII.GetString(Line);

    /// <summary>Finds the return flag <paramref name="flag"/> and its token.</summary>
    internal bool TryGetFlag(byte flag, out ReadOnlySpan<byte> token)
    {
        ReadOnlySpan<byte> rest = Flags;
        while (!rest.IsEmpty)
        {
            ReadOnlySpan<byte> item = NextToken(ref rest);
            if (!item.IsEmpty && item[0] == flag)
            {
                token = item[1..];
                return true;
            }
        }

        token = default;
        return false;
    }

    /// <summary>Reads the numeric token of a return flag; absent gives <paramref name="absent"/>, malformed is a protocol violation.</summary>
    internal ulong GetNumber(byte flag, ulong absent = 0)
    {
        if (!TryGetFlag(flag, out ReadOnlySpan<byte> token))
        {
            return absent;
        }

        if (!Utf8Parser.TryParse(token, out ulong value, out int consumed) || consumed != token.Length)
        {
            throw new ProtocolViolationException($"flag '{(char)flag}' has a token that is not a number in \"{LineText}\"");
        }

        return value;
    }

    /// <summary>Reads the recache flags (<c>W</c>, <c>X</c>, <c>Z</c>): tokens of one letter, which no requested flag is.</summary>
    internal RecacheFlags GetRecacheFlags()
    {
        RecacheFlags flags = RecacheFlags.None;
        ReadOnlySpan<byte> rest = Flags;
        while (!rest.IsEmpty)
        {
            ReadOnlySpan<byte> item = NextToken(ref rest);
            if (item.Length == 1)
            {
                flags |= item[0] switch
                {
                    (byte)'W' => RecacheFlags.Won,
                    (byte)'X' => RecacheFlags.Stale,
                    (byte)'Z' => RecacheFlags.WinSent,
                    _ => RecacheFlags.None,
                };
            }
        }

        return flags;
    }

    /// <summary>Reads the client flags (<c>f</c>), a 32-bit unsigned number; absent means 0.</summary>
    internal uint GetFlags()
    {
        ulong flags = GetNumber((byte)'f');
        if (flags > uint.MaxValue)
        {
            throw new ProtocolViolationException($"client flags above 32 bits in \"{LineText}\"");
        }

        return (uint)flags;
    }

    /// <summary>Reads the remaining TTL (<c>t</c>): seconds, or -1 for an item that never expires.</summary>
    internal long GetTtl()
    {
        if (!TryGetFlag((byte)'t', out ReadOnlySpan<byte> token))
        {
            return -1;
        }

        if (!Utf8Parser.TryParse(token, out long value, out int consumed) || consumed != token.Length || value < -1)
        {
            throw new ProtocolViolationException($"flag 't' has a token that is not a TTL in \"{LineText}\"");
        }

        return value;
    }

    /// <summary>Checks the <c>O</c> token echoes <paramref name="expected"/>; any other value means the pipeline is out of step.</summary>
    internal void CheckOpaque(uint expected)
    {
        if (!TryGetFlag((byte)'O', out ReadOnlySpan<byte> token)
            || !Utf8Parser.TryParse(token, out uint value, out int consumed) || consumed != token.Length || value != expected)
        {
            throw new ProtocolViolationException($"reply \"{LineText}\" does not carry the opaque O{expected} of the request at the head of the pipeline");
        }
    }

    /// <summary>Cuts the first space-separated token off <paramref name="rest"/>.</summary>
    private static ReadOnlySpan<byte> NextToken(scoped ref ReadOnlySpan<byte> rest)
    {
        int space = rest.IndexOf((byte)' ');
        ReadOnlySpan<byte> token = space < 0 ? rest : rest[..space];
        rest = space < 0 ? default : rest[(space + 1)..];
        return token;
    }
}
