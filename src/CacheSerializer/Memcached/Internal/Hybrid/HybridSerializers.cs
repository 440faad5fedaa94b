using System.Buffers;
using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;
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

    /// <summary>One type's way to and from an envelope's value, and, as the lease's <see cref="EntryFormat{T}"/>, to and
    /// from the item an entry is stored as: the envelope as a byte array through the client's transcoder. The lease learns
    /// from it whether the value inside was written by another build (docs/hybrid.md, "Deploys: build copies"), and then keeps this
    /// build's copy beside that entry, as <c>GetOrCreateAsync</c> does.</summary>
    internal sealed class Codec<T>(IHybridCacheSerializer<T>? serializer, ItemReader items) : EntryFormat<HybridEntry<T>>
    {
        /// <summary>Gets the build of the value's type: two builds' contracts of it keep two copies.</summary>
        internal override uint Build => CopyFormat.BuildOf(typeof(T));

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
        internal bool TryRead(HybridEnvelope envelope, out T value) => TryRead(envelope, out value, out _);

        /// <summary>The entry's item: its envelope as a byte array, through the client's transcoder.</summary>
        internal override CacheItem Serialize(MemcachedEngine engine, HybridEntry<T> value) => engine.Transcoder.Serialize(value.Envelope!.ToBytes());

        /// <summary>Reads an entry's item: false when it is not an envelope (<see cref="TranscoderErrorKind.Malformed"/>)
        /// or its value cannot be read, with the value's reason (another contract: another build's entry).</summary>
        internal override bool TryRead(MemcachedEngine engine, CacheItem item, in MemcachedKey key, ulong cas, long ttl, out HybridEntry<T> value, out TranscoderErrorKind reason)
        {
            value = null!;
            if (!engine.Items.TryRead(item, key, out byte[]? bytes, out reason))
            {
                return false;
            }

            if (!HybridEnvelope.TryRead(bytes!, out HybridEnvelope envelope))
            {
                reason = TranscoderErrorKind.Malformed;
                return false;
            }

            if (!TryRead(envelope, out T read, out reason))
            {
                return false;
            }

            value = new HybridEntry<T>(read, envelope, cas, ttl);
            return true;
        }

        /// <summary>A joined caller's entry: the same value if <typeparamref name="T"/> is immutable, else its own copy read
        /// from the envelope (no envelope when it cannot be read: that caller then reads the entry again).</summary>
        internal override HybridEntry<T> ForJoined(MemcachedEngine engine, HybridEntry<T> value, CacheItem item)
        {
            if (ImmutableType<T>.Value || value.Envelope is null)
            {
                return value;
            }

            return TryRead(value.Envelope, out T copy) ? value with { Value = copy } : new HybridEntry<T>(default!, null, 0);
        }

        private bool TryRead(HybridEnvelope envelope, out T value, out TranscoderErrorKind reason)
        {
            value = default!;
            reason = TranscoderErrorKind.Other;
            if (envelope.FromSerializer != serializer is not null)
            {
                // Written by the transcoder where this build registers a serializer for the type, or the other way
                // round: another build's configuration, kept beside as another contract is.
                reason = TranscoderErrorKind.OtherContract;
                return false;
            }

            if (serializer is null)
            {
                bool read = items.TryRead(new CacheItem(envelope.Flags, envelope.Value), default, out T? item, out reason);
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
