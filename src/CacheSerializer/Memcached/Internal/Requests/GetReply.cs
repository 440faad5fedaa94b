using System.Buffers;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A raw read result: hit with the stored item and CAS token, miss, or the placeholder of a miss being recached.</summary>
/// <remarks>
/// <para>The item's bytes are a copy of the read buffer's slice, made on the read thread. When the reader of the reply
/// promises to keep no reference to them (the client's <see cref="ProtobufTranscoder"/> does), the copy is rented from
/// <see cref="ArrayPool{T}.Shared"/> and <see cref="Release"/> gives it back once the value is read: with 10 KB values
/// that halves what a get allocates (docs/benchmarks.md).</para>
/// <para>A <b>placeholder</b> is the empty item memcached 1.6 creates for <c>mg ... N&lt;ttl&gt;</c> on a miss, until
/// the winner stores the value: 0 bytes, client flags 0, and always a win flag (<c>W</c> for the get that created it,
/// <c>Z</c> for every later one, also gets without <c>N</c>). It is not a value, so every read path of the client
/// reads it as a miss (<see cref="Hit"/> false, <see cref="IsPlaceholder"/> true). No value the package's transcoder
/// writes has flags 0 (docs/format.md), so no value of this client is taken for one.</para>
/// </remarks>
internal readonly struct GetReply
{
    private readonly bool _pooled;

    private GetReply(bool hit, CacheItem item, ulong cas, long ttl, RecacheFlags recache, bool pooled)
    {
        Hit = hit;
        Item = item;
        Cas = cas;
        Ttl = ttl;
        Recache = recache;
        _pooled = pooled;
    }

    /// <summary>Gets a value indicating whether the key holds a value (a placeholder is not one).</summary>
    internal bool Hit { get; }

    /// <summary>Gets a value indicating whether the key holds the empty placeholder of a miss that a client is recaching.</summary>
    internal bool IsPlaceholder => !Hit && (Recache & (RecacheFlags.Won | RecacheFlags.WinSent)) != 0;

    internal CacheItem Item { get; }

    internal ulong Cas { get; }

    /// <summary>Gets the remaining TTL in seconds when asked for (-1: never expires).</summary>
    internal long Ttl { get; }

    /// <summary>Gets the reply's recache flags (<c>W</c>, <c>X</c>, <c>Z</c>).</summary>
    internal RecacheFlags Recache { get; }

    /// <summary>Gets a value indicating whether this get won the right to recache the item (<c>W</c>).</summary>
    internal bool Won => (Recache & RecacheFlags.Won) != 0;

    /// <summary>Gets a value indicating whether the item was marked stale (<c>X</c>).</summary>
    internal bool Stale => (Recache & RecacheFlags.Stale) != 0;

    /// <summary>Reads a <c>VA</c> reply: a hit, or a placeholder (copying nothing) when it is one.</summary>
    /// <param name="reply">The reply; its data is copied out of the read buffer.</param>
    /// <param name="ttl">Whether the request asked for the remaining TTL.</param>
    /// <param name="pooled">Whether the copy may be rented (the caller then calls <see cref="Release"/>).</param>
    internal static GetReply FromValue(in MetaReply reply, bool ttl, bool pooled)
    {
        uint flags = reply.GetFlags();
        RecacheFlags recache = reply.GetRecacheFlags();
        ulong cas = reply.GetNumber((byte)'c');
        long remaining = ttl ? reply.GetTtl() : -1;
        if (flags == 0 && reply.Data.IsEmpty && (recache & (RecacheFlags.Won | RecacheFlags.WinSent)) != 0)
        {
            return new GetReply(false, default, cas, remaining, recache, false);
        }

        return new GetReply(true, new CacheItem(flags, Copy(reply.Data, pooled)), cas, remaining, recache, pooled);
    }

    /// <summary>Copies a value out of the read buffer: into a rented array when <paramref name="pooled"/>, else an exact one.</summary>
    internal static ArraySegment<byte> Copy(ReadOnlySpan<byte> data, bool pooled)
    {
        if (!pooled || data.Length == 0)
        {
            return data.ToArray();
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(data.Length);
        data.CopyTo(rented);
        return new ArraySegment<byte>(rented, 0, data.Length);
    }

    /// <summary>Gives a rented copy back to the pool; the item must not be read afterwards. Does nothing for a miss or an exact copy.</summary>
    internal void Release()
    {
        if (_pooled && Item.Data.Array is { Length: > 0 } array)
        {
            ArrayPool<byte>.Shared.Return(array);
        }
    }
}
