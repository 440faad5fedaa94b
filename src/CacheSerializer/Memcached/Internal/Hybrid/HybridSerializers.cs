using System.Buffers;
using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Reading;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>How the HybridCache turns a type's values into bytes: a registered <see cref="IHybridCacheSerializer{T}"/>,
/// else the last registered <see cref="IHybridCacheSerializerFactory"/> that takes the type (Microsoft's order), else
/// the client's transcoder. Resolved once per type.</summary>
internal sealed class HybridSerializers(IServiceProvider? services, ItemReader items)
{
    private readonly ConcurrentDictionary<Type, object> _codecs = new();

    internal Codec<T> For<T>() => (Codec<T>)_codecs.GetOrAdd(typeof(T), static (_, self) => new Codec<T>(self.Find<T>(), self.Items), this);

    private ItemReader Items => items;

    private IHybridCacheSerializer<T>? Find<T>()
    {
        if (services is null)
        {
            return null;
        }

        if (services.GetService<IHybridCacheSerializer<T>>() is { } serializer)
        {
            return serializer;
        }

        IHybridCacheSerializerFactory[] factories = [.. services.GetServices<IHybridCacheSerializerFactory>()];
        for (int i = factories.Length - 1; i >= 0; i--)
        {
            if (factories[i].TryCreateSerializer(out IHybridCacheSerializer<T>? created))
            {
                return created;
            }
        }

        return null;
    }

    /// <summary>One type's way to and from an envelope's value.</summary>
    internal sealed class Codec<T>(IHybridCacheSerializer<T>? serializer, ItemReader items)
    {
        /// <summary>The envelope of a value made when the log stood at <paramref name="creation"/>.</summary>
        internal HybridEnvelope Wrap(T value, ulong creation, string[] tags)
        {
            if (serializer is null)
            {
                CacheItem item = items.Transcoder.Serialize(value);
                return new HybridEnvelope(creation, tags, fromSerializer: false, item.Flags, item.Data);
            }

            var buffer = new ArrayBufferWriter<byte>();
            serializer.Serialize(value, buffer);
            return new HybridEnvelope(creation, tags, fromSerializer: true, 0, new ArraySegment<byte>(buffer.WrittenSpan.ToArray()));
        }

        /// <summary>Reads an envelope's value; false when it cannot be read (written by the other way, another contract,
        /// corrupt), which is a miss under <see cref="UnreadableItemPolicy.Miss"/>.</summary>
        internal bool TryRead(HybridEnvelope envelope, out T value)
        {
            value = default!;
            if (envelope.FromSerializer != serializer is not null)
            {
                return false;
            }

            if (serializer is null)
            {
                bool read = items.TryRead(new CacheItem(envelope.Flags, envelope.Value), default, out T? item);
                value = item!;
                return read;
            }

            try
            {
                value = serializer.Deserialize(new ReadOnlySequence<byte>(envelope.Value));
                return true;
            }
            catch (Exception ex) when (ex is not (OperationCanceledException or OutOfMemoryException) && items.IsMiss(ex, typeof(T), default))
            {
                return false;
            }
        }
    }
}
