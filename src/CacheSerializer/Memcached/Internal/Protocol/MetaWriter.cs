using System.Buffers;
using System.Buffers.Text;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>Writes meta protocol commands (memcached doc/protocol.txt, "Meta Commands"; memcached 1.6.18+) as bytes.</summary>
/// <remarks>
/// Pure code over an <see cref="IBufferWriter{T}"/>: every command ends with <c>O&lt;opaque&gt;</c> so the reader can
/// check that each reply belongs to the request at the head of the pipeline.
/// </remarks>
internal static class MetaWriter
{
    private static ReadOnlySpan<byte> Crlf => "\r\n"u8;

    /// <summary><c>mg &lt;key&gt; [b] [N&lt;vivify&gt;] [R&lt;recache&gt;] [v f] [c] [t] [T&lt;ttl&gt;] [q] O&lt;opaque&gt;</c>.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="key">The key.</param>
    /// <param name="value"><c>v f</c>: return the value and its client flags.</param>
    /// <param name="cas"><c>c</c>: return the CAS token.</param>
    /// <param name="touchTtl"><c>T</c>: a new TTL to set on a hit, or -1 for none.</param>
    /// <param name="quiet"><c>q</c>: no reply on a miss (in a batch ended by <c>mn</c>).</param>
    /// <param name="opaque">The request's opaque.</param>
    /// <param name="ttl"><c>t</c>: return the remaining TTL.</param>
    /// <param name="vivifyTtl">With 0 or more, <c>N</c>: on a miss memcached creates an empty placeholder with this TTL
    /// and answers this get with <c>W</c> (it won), later gets with <c>Z</c>; -1 for none.</param>
    /// <param name="recacheTtl">With more than 0, <c>R</c>: a hit whose remaining TTL is below this many seconds wins
    /// (<c>W</c>), once; 0 for none.</param>
    internal static void WriteGet(IBufferWriter<byte> writer, in MemcachedKey key, bool value, bool cas, long touchTtl, bool quiet, uint opaque, bool ttl = false,
        long vivifyTtl = Expiration.None, long recacheTtl = 0)
    {
        var w = new Cursor(writer, key.WireLength + 128);
        w.Ascii("mg "u8);
        WriteKey(ref w, key);

        // memcached 1.6.18 applies the flags in the order they come: N before t, or t reports a new placeholder's
        // TTL as -1 (checked on 1.6.18).
        if (vivifyTtl >= 0)
        {
            w.Ascii(" N"u8);
            w.Number((ulong)vivifyTtl);
        }

        if (recacheTtl > 0)
        {
            w.Ascii(" R"u8);
            w.Number((ulong)recacheTtl);
        }

        if (value)
        {
            w.Ascii(" v f"u8);
        }

        if (cas)
        {
            w.Ascii(" c"u8);
        }

        if (ttl)
        {
            w.Ascii(" t"u8);
        }

        if (touchTtl >= 0)
        {
            w.Ascii(" T"u8);
            w.Number((ulong)touchTtl);
        }

        if (quiet)
        {
            w.Ascii(" q"u8);
        }

        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
    }

    /// <summary><c>ms &lt;key&gt; &lt;len&gt; [b] F&lt;flags&gt; T&lt;ttl&gt; M&lt;mode&gt; [C&lt;cas&gt;] [c] O&lt;opaque&gt;</c> and the data block.</summary>
    /// <remarks>With <c>returnCas</c> (<c>c</c>) the reply carries the item's new CAS token (EnyimMemcachedCore's <c>Cas</c> returns it).</remarks>
    internal static void WriteSet(IBufferWriter<byte> writer, in MemcachedKey key, StoreMode mode, uint flags, long ttl, ulong cas, ReadOnlySpan<byte> value, uint opaque, bool returnCas = false)
    {
        var w = new Cursor(writer, key.WireLength + 128);
        w.Ascii("ms "u8);
        WriteKey(ref w, key, (ulong)value.Length);
        w.Ascii(" F"u8);
        w.Number(flags);
        w.Ascii(" T"u8);
        w.Number((ulong)ttl);
        if (mode != StoreMode.Set)
        {
            w.Ascii(" M"u8);
            w.Byte(ModeLetter(mode));
        }

        if (cas != 0)
        {
            w.Ascii(" C"u8);
            w.Number(cas);
        }

        if (returnCas)
        {
            w.Ascii(" c"u8);
        }

        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
        WriteBlock(writer, value);
    }

    /// <summary><c>md &lt;key&gt; [b] [C&lt;cas&gt;] [I] [T&lt;ttl&gt;] O&lt;opaque&gt;</c>.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="key">The key.</param>
    /// <param name="opaque">The request's opaque.</param>
    /// <param name="cas">Non-zero: only if the item's CAS token is this one (else <c>EX</c>).</param>
    /// <param name="invalidate"><c>I</c>: mark the item stale instead of removing it (bumps its CAS, clears a win sent).</param>
    /// <param name="ttl">With <paramref name="invalidate"/> and 0 or more: the stale item's new TTL (<c>T</c>); -1 keeps it.</param>
    internal static void WriteDelete(IBufferWriter<byte> writer, in MemcachedKey key, uint opaque, ulong cas = 0, bool invalidate = false, long ttl = -1)
    {
        var w = new Cursor(writer, key.WireLength + 80);
        w.Ascii("md "u8);
        WriteKey(ref w, key);
        if (cas != 0)
        {
            w.Ascii(" C"u8);
            w.Number(cas);
        }

        if (invalidate)
        {
            w.Ascii(" I"u8);
            if (ttl >= 0)
            {
                w.Ascii(" T"u8);
                w.Number((ulong)ttl);
            }
        }

        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
    }

    /// <summary><c>ma &lt;key&gt; [b] v [MD] D&lt;delta&gt; [N&lt;ttl&gt; J&lt;initial&gt;] [C&lt;cas&gt; c] O&lt;opaque&gt;</c>; a null <c>initial</c> leaves a miss a miss (NF).</summary>
    /// <remarks>A non-zero <c>cas</c> changes the counter only if its CAS token is that one (else <c>EX</c>); with
    /// <c>returnCas</c> (<c>c</c>) the reply carries the counter's new CAS token.</remarks>
    internal static void WriteArithmetic(IBufferWriter<byte> writer, in MemcachedKey key, bool decrement, ulong delta, ulong? initial, long ttl, uint opaque, ulong cas = 0, bool returnCas = false)
    {
        var w = new Cursor(writer, key.WireLength + 128);
        w.Ascii("ma "u8);
        WriteKey(ref w, key);
        w.Ascii(" v"u8);
        if (decrement)
        {
            w.Ascii(" MD"u8);
        }

        w.Ascii(" D"u8);
        w.Number(delta);
        if (initial is ulong seed)
        {
            w.Ascii(" N"u8);
            w.Number((ulong)ttl);
            w.Ascii(" J"u8);
            w.Number(seed);
        }

        if (cas != 0)
        {
            w.Ascii(" C"u8);
            w.Number(cas);
        }

        if (returnCas)
        {
            w.Ascii(" c"u8);
        }

        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
    }

    /// <summary><c>mn</c>: the end marker of a quiet batch.</summary>
    internal static void WriteNoop(IBufferWriter<byte> writer) => writer.Write("mn\r\n"u8);

    /// <summary>A classic text command (<c>stats</c>, <c>flush_all</c>), for which the meta protocol has no form.</summary>
    internal static void WriteText(IBufferWriter<byte> writer, ReadOnlySpan<byte> line)
    {
        writer.Write(line);
        writer.Write(Crlf);
    }

    /// <summary>The meta set mode flag (<c>M</c>): add is <c>E</c>, the others their initial (doc/protocol.txt, "Meta Set").</summary>
    private static byte ModeLetter(StoreMode mode) => mode switch
    {
        StoreMode.Add => (byte)'E',
        StoreMode.Replace => (byte)'R',
        StoreMode.Append => (byte)'A',
        StoreMode.Prepend => (byte)'P',
        _ => (byte)'S',
    };

    private static void WriteKey(ref Cursor w, in MemcachedKey key, ulong? dataLength = null)
    {
        w.Key(key);
        if (dataLength is ulong length)
        {
            w.Byte((byte)' ');
            w.Number(length);
        }

        if (key.IsBase64)
        {
            w.Ascii(" b"u8);
        }
    }

    private static void WriteOpaqueAndEnd(ref Cursor w, uint opaque)
    {
        w.Ascii(" O"u8);
        w.Number(opaque);
        w.Ascii(Crlf);
    }

    private static void WriteBlock(IBufferWriter<byte> writer, ReadOnlySpan<byte> value)
    {
        writer.Write(value);
        writer.Write(Crlf);
    }

    /// <summary>Appends ASCII to one span taken from the writer (sized up front), committed once.</summary>
    private ref struct Cursor
    {
        private readonly IBufferWriter<byte> _writer;
        private readonly Span<byte> _span;
        private int _position;

        internal Cursor(IBufferWriter<byte> writer, int sizeHint)
        {
            _writer = writer;
            _span = writer.GetSpan(sizeHint);
            _position = 0;
        }

        internal void Ascii(ReadOnlySpan<byte> text)
        {
            text.CopyTo(_span[_position..]);
            _position += text.Length;
        }

        internal void Byte(byte value) => _span[_position++] = value;

        internal void Key(in MemcachedKey key) => _position += key.WriteWire(_span[_position..]);

        internal void Number(ulong value)
        {
            Utf8Formatter.TryFormat(value, _span[_position..], out int written);
            _position += written;
        }

        internal readonly void Commit() => _writer.Advance(_position);
    }
}
