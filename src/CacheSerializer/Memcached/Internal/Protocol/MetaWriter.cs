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

    /// <summary><c>mg &lt;key&gt; [b] [v f] [c] [t] [T&lt;ttl&gt;] [q] O&lt;opaque&gt;</c>; <c>touchTtl</c> is a new TTL to set on a hit, or -1 for none.</summary>
    internal static void WriteGet(IBufferWriter<byte> writer, in MemcachedKey key, bool value, bool cas, long touchTtl, bool quiet, uint opaque, bool ttl = false)
    {
        var w = new Cursor(writer, key.Wire.Length + 64);
        w.Ascii("mg "u8);
        WriteKey(ref w, key);
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

    /// <summary><c>ms &lt;key&gt; &lt;len&gt; [b] F&lt;flags&gt; T&lt;ttl&gt; M&lt;mode&gt; [C&lt;cas&gt;] O&lt;opaque&gt;</c> and the data block.</summary>
    internal static void WriteSet(IBufferWriter<byte> writer, in MemcachedKey key, StoreMode mode, uint flags, long ttl, ulong cas, ReadOnlySpan<byte> value, uint opaque)
    {
        var w = new Cursor(writer, key.Wire.Length + 128);
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

        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
        WriteBlock(writer, value);
    }

    /// <summary><c>md &lt;key&gt; [b] [q] O&lt;opaque&gt;</c>.</summary>
    internal static void WriteDelete(IBufferWriter<byte> writer, in MemcachedKey key, uint opaque)
    {
        var w = new Cursor(writer, key.Wire.Length + 48);
        w.Ascii("md "u8);
        WriteKey(ref w, key);
        WriteOpaqueAndEnd(ref w, opaque);
        w.Commit();
    }

    /// <summary><c>ma &lt;key&gt; [b] v [MD] D&lt;delta&gt; [N&lt;ttl&gt; J&lt;initial&gt;] O&lt;opaque&gt;</c>; a null <c>initial</c> leaves a miss a miss (NF).</summary>
    internal static void WriteArithmetic(IBufferWriter<byte> writer, in MemcachedKey key, bool decrement, ulong delta, ulong? initial, long ttl, uint opaque)
    {
        var w = new Cursor(writer, key.Wire.Length + 128);
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
        w.Ascii(key.Wire);
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

        internal void Number(ulong value)
        {
            Utf8Formatter.TryFormat(value, _span[_position..], out int written);
            _position += written;
        }

        internal readonly void Commit() => _writer.Advance(_position);
    }
}
