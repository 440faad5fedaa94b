using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using CacheSerializer.Memcached.Internal.Reading;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>HybridCache's serializers, built on the public <see cref="ITranscoder"/> contract: a value becomes the
/// transcoder's <see cref="CacheItem"/>, stored as its flags (4 bytes, little-endian) followed by its bytes.</summary>
/// <remarks>
/// The flags name the codec, and the transcoder writes an object's own type into its bytes, so a value reads back as the
/// type it was stored as (a <c>Book</c> stored as a <c>Product</c> is a <c>Book</c> again), whatever engine the
/// transcoder uses. Every type is accepted here; a type the transcoder cannot store fails at Serialize with its
/// exception, never silently through another serializer.
/// </remarks>
internal sealed class TranscoderHybridCacheSerializerFactory(Func<ItemReader> reader) : IHybridCacheSerializerFactory
{
    private ItemReader? _reader;

    public bool TryCreateSerializer<T>([NotNullWhen(true)] out IHybridCacheSerializer<T>? serializer)
    {
        // Resolved at first use, not at registration: the client's transcoder exists only once the client is built.
        serializer = new TranscoderHybridCacheSerializer<T>(_reader ??= reader());
        return true;
    }
}

/// <summary>One type's HybridCache serializer over an <see cref="ITranscoder"/>: flags (4 bytes, little-endian), then the item's bytes.</summary>
/// <remarks>
/// An entry the transcoder cannot read is counted, then under <see cref="UnreadableItemPolicy.Miss"/> logged once per type
/// and reason and thrown as <see cref="UnreadableHybridCacheEntryException"/>, which <see cref="MissOnUnreadableHybridCache"/>
/// turns into a miss (HybridCache itself has no way for a serializer to report one); under
/// <see cref="UnreadableItemPolicy.Throw"/> the transcoder's exception is thrown as it is.
/// </remarks>
internal sealed class TranscoderHybridCacheSerializer<T>(ItemReader reader) : IHybridCacheSerializer<T>
{
    /// <summary>The flags that precede the item's bytes.</summary>
    internal const int HeaderLength = 4;

    /// <summary>A serializer that throws every unreadable entry's exception as it is (tests of the format).</summary>
    internal TranscoderHybridCacheSerializer(ITranscoder transcoder)
        : this(new ItemReader(transcoder, UnreadableItemPolicy.Throw, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance, "HybridCache serializer"))
    {
    }

    public void Serialize(T value, IBufferWriter<byte> target)
    {
        ArgumentNullException.ThrowIfNull(target);
        CacheItem item = reader.Transcoder.Serialize(value);
        Span<byte> header = target.GetSpan(HeaderLength);
        BinaryPrimitives.WriteUInt32LittleEndian(header, item.Flags);
        target.Advance(HeaderLength);
        target.Write(item.Data.AsSpan());
    }

    public T Deserialize(ReadOnlySequence<byte> source)
    {
        if (source.Length < HeaderLength)
        {
            TranscoderException tooShort = ThrowHelper.HybridCacheEntryTooShort(source.Length, HeaderLength);
            throw reader.IsMiss(tooShort, typeof(T), default) ? new UnreadableHybridCacheEntryException(tooShort) : tooShort;
        }

        Span<byte> header = stackalloc byte[HeaderLength];
        source.Slice(0, HeaderLength).CopyTo(header);
        uint flags = BinaryPrimitives.ReadUInt32LittleEndian(header);

        // A copy: HybridCache may reuse its buffer, and a transcoder other than ours may keep the item's array.
        var item = new CacheItem(flags, source.Slice(HeaderLength).ToArray());
        try
        {
            return reader.Transcoder.Deserialize<T>(item)!;
        }
        catch (Exception ex) when (ex is not (OperationCanceledException or OutOfMemoryException) && reader.IsMiss(ex, typeof(T), default))
        {
            throw new UnreadableHybridCacheEntryException(ex);
        }
    }
}
