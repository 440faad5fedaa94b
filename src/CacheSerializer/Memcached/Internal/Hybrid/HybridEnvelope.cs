using System.Buffers.Binary;
using System.Text;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>What the HybridCache stores in memcached for an entry (docs/format.md, "HybridCache entries"): a version
/// byte, the entry's creation sequence, its tags, then the value's flags and bytes.</summary>
/// <remarks>
/// The layout (all integers little-endian): version (1 byte, <see cref="Version"/>); kind (1 byte: 0 the transcoder's
/// item, 1 a registered <c>IHybridCacheSerializer</c>'s bytes); creation sequence (8 bytes); tag count (2 bytes); each
/// tag as its UTF-8 length (2 bytes) and bytes; the value's flags (4 bytes, the transcoder's; 0 for a serializer's);
/// the value's bytes, to the end. The envelope is itself stored as a byte array through the client's transcoder; the
/// lease machinery reads and fills it through the type's <see cref="HybridSerializers.Codec{T}"/>, which looks inside it
/// for the value's contract (another build's entry keeps a build copy beside it).
/// </remarks>
internal sealed class HybridEnvelope
{
    /// <summary>The envelope's layout version; another version reads as an unreadable entry (a miss).</summary>
    internal const byte Version = 1;

    /// <summary>The most tags an entry carries (the count is 2 bytes).</summary>
    internal const int MaxTags = ushort.MaxValue;

    private const int FixedLength = 1 + 1 + 8 + 2 + 4;

    internal HybridEnvelope(ulong creation, string[] tags, bool fromSerializer, uint flags, ArraySegment<byte> value)
    {
        Creation = creation;
        Tags = tags;
        FromSerializer = fromSerializer;
        Flags = flags;
        Value = value;
    }

    /// <summary>Gets the last invalidation sequence the creating server had seen when the entry's value was made.</summary>
    internal ulong Creation { get; }

    internal string[] Tags { get; }

    /// <summary>Gets a value indicating whether a registered serializer wrote the value (else the transcoder).</summary>
    internal bool FromSerializer { get; }

    internal uint Flags { get; }

    internal ArraySegment<byte> Value { get; }

    /// <summary>The envelope's bytes.</summary>
    internal byte[] ToBytes()
    {
        int length = FixedLength + Value.Count;
        foreach (string tag in Tags)
        {
            length += 2 + Encoding.UTF8.GetByteCount(tag);
        }

        byte[] bytes = new byte[length];
        Span<byte> w = bytes;
        w[0] = Version;
        w[1] = FromSerializer ? (byte)1 : (byte)0;
        BinaryPrimitives.WriteUInt64LittleEndian(w[2..], Creation);
        BinaryPrimitives.WriteUInt16LittleEndian(w[10..], (ushort)Tags.Length);
        int at = 12;
        foreach (string tag in Tags)
        {
            int written = Encoding.UTF8.GetBytes(tag, w[(at + 2)..]);
            BinaryPrimitives.WriteUInt16LittleEndian(w[at..], (ushort)written);
            at += 2 + written;
        }

        BinaryPrimitives.WriteUInt32LittleEndian(w[at..], Flags);
        Value.AsSpan().CopyTo(w[(at + 4)..]);
        return bytes;
    }

    /// <summary>Reads an envelope; false for bytes that are not one of this version (another writer, corrupt, truncated).</summary>
    internal static bool TryRead(ArraySegment<byte> bytes, out HybridEnvelope envelope)
    {
        envelope = null!;
        ReadOnlySpan<byte> r = bytes;
        if (r.Length < FixedLength || r[0] != Version || r[1] > 1)
        {
            return false;
        }

        ulong creation = BinaryPrimitives.ReadUInt64LittleEndian(r[2..]);
        int count = BinaryPrimitives.ReadUInt16LittleEndian(r[10..]);
        int at = 12;
        string[] tags = count == 0 ? [] : new string[count];
        for (int i = 0; i < count; i++)
        {
            if (r.Length < at + 2)
            {
                return false;
            }

            int length = BinaryPrimitives.ReadUInt16LittleEndian(r[at..]);
            if (r.Length < at + 2 + length + 4)
            {
                return false;
            }

            tags[i] = Encoding.UTF8.GetString(r.Slice(at + 2, length));
            at += 2 + length;
        }

        if (r.Length < at + 4)
        {
            return false;
        }

        uint flags = BinaryPrimitives.ReadUInt32LittleEndian(r[at..]);
        envelope = new HybridEnvelope(creation, tags, r[1] == 1, flags, bytes.Slice(at + 4));
        return true;
    }
}
