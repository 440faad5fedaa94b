using System.Buffers;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A raw read result: hit with the stored item and CAS token, or miss.</summary>
/// <remarks>
/// The item's bytes are a copy of the read buffer's slice, made on the read thread. When the reader of the reply
/// promises to keep no reference to them (the client's <see cref="ProtobufTranscoder"/> does), the copy is rented from
/// <see cref="ArrayPool{T}.Shared"/> and <see cref="Release"/> gives it back once the value is read: with 10 KB values
/// that halves what a get allocates (docs/benchmarks.md).
/// </remarks>
internal readonly struct GetReply
{
    private readonly bool _pooled;

    internal GetReply(CacheItem item, ulong cas, long ttl, bool pooled = false)
    {
        Hit = true;
        Item = item;
        Cas = cas;
        Ttl = ttl;
        _pooled = pooled;
    }

    internal bool Hit { get; }

    internal CacheItem Item { get; }

    internal ulong Cas { get; }

    /// <summary>Gets the remaining TTL in seconds when asked for (-1: never expires).</summary>
    internal long Ttl { get; }

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
