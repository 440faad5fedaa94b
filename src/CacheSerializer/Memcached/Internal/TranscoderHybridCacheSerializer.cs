using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.Memcached.Internal;

/// <summary>HybridCache's serializers, built on the public <see cref="ITranscoder"/> contract: a value becomes the
/// transcoder's <see cref="CacheItem"/>, stored as its flags (4 bytes, little-endian) followed by its bytes.</summary>
/// <remarks>
/// The flags name the codec, and the transcoder writes an object's own type into its bytes, so a value reads back as the
/// type it was stored as (a <c>Book</c> stored as a <c>Product</c> is a <c>Book</c> again), whatever engine the
/// transcoder uses. Every type is accepted here; a type the transcoder cannot store fails at Serialize with its
/// exception, never silently through another serializer.
/// </remarks>
internal sealed class TranscoderHybridCacheSerializerFactory(Func<ITranscoder> transcoder) : IHybridCacheSerializerFactory
{
    private ITranscoder? _transcoder;

    public bool TryCreateSerializer<T>([NotNullWhen(true)] out IHybridCacheSerializer<T>? serializer)
    {
        // Resolved at first use, not at registration: the client's transcoder exists only once the client is built.
        serializer = new TranscoderHybridCacheSerializer<T>(_transcoder ??= transcoder());
        return true;
    }
}

/// <summary>One type's HybridCache serializer over an <see cref="ITranscoder"/>: flags (4 bytes, little-endian), then the item's bytes.</summary>
internal sealed class TranscoderHybridCacheSerializer<T>(ITranscoder transcoder) : IHybridCacheSerializer<T>
{
    /// <summary>The flags that precede the item's bytes.</summary>
    internal const int HeaderLength = 4;

    public void Serialize(T value, IBufferWriter<byte> target)
    {
        ArgumentNullException.ThrowIfNull(target);
        CacheItem item = transcoder.Serialize(value);
        Span<byte> header = target.GetSpan(HeaderLength);
        BinaryPrimitives.WriteUInt32LittleEndian(header, item.Flags);
        target.Advance(HeaderLength);
        target.Write(item.Data.AsSpan());
    }

    public T Deserialize(ReadOnlySequence<byte> source)
    {
        if (source.Length < HeaderLength)
        {
            throw ThrowHelper.HybridCacheEntryTooShort(source.Length, HeaderLength);
        }

        Span<byte> header = stackalloc byte[HeaderLength];
        source.Slice(0, HeaderLength).CopyTo(header);
        uint flags = BinaryPrimitives.ReadUInt32LittleEndian(header);

        // A copy: HybridCache may reuse its buffer, and a transcoder other than ours may keep the item's array.
        return transcoder.Deserialize<T>(new CacheItem(flags, source.Slice(HeaderLength).ToArray()))!;
    }
}
