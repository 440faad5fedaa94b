using System.IO.Compression;
using CacheSerializer.Transcoding;
using CacheSerializer.Transcoding.Codecs;
using CacheSerializer.Protobuf;

namespace CacheSerializer;

/// <summary>
/// Stores .NET primitives natively (with EnyimMemcachedCore DefaultTranscoder's flags and bytes where it has them),
/// Google.Protobuf messages through their generated code, and objects through the protobuf engine; reads everything
/// it wrote, and DefaultTranscoder's entries through an inner transcoder. The byte format is docs/format.md.
/// </summary>
/// <remarks>
/// A value's type picks one codec, once per type (an application <see cref="CacheCodec{T}"/>, then the natives, then
/// Google.Protobuf messages, then the protobuf engine, then the opt-in BinaryFormatter fallback). Reading picks the
/// codec by the item's flags alone and never loads a type named by a payload. Thread-safe. Deserialize keeps no
/// reference to the item's array, so a client may reuse its receive buffer as soon as the call returns.
/// </remarks>
public sealed class ProtobufTranscoder : ITranscoder
{
    private readonly CodecChain _chain;
    private readonly ReaderTable _readers;
    private readonly ITranscoder? _inner;
    private readonly int _maxItemSize;
    private readonly TranscoderCompression _compression;
    private readonly CompressionLevel _compressionLevel;
    private readonly int _compressionThreshold;
    private readonly int _maxDecompressionRatio;

    /// <summary>Creates a transcoder with the default options (no compression, no fallback, 1 MiB item limit).</summary>
    public ProtobufTranscoder()
        : this(new ProtobufTranscoderOptions())
    {
    }

    /// <summary>Creates a transcoder from validated options; later changes to <paramref name="options"/> do not affect it.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentException">An option is invalid; the message names the property.</exception>
    public ProtobufTranscoder(ProtobufTranscoderOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();

        _inner = options.InnerTranscoder;
        _maxItemSize = options.MaxItemSize;
        _compression = options.Compression;
        _compressionLevel = options.CompressionLevel;
        _compressionThreshold = options.CompressionThreshold;
        _maxDecompressionRatio = options.MaxDecompressionRatio;

        var registry = new TypeRegistry(new Dictionary<Type, int>(options.TypeAliases));
        var fallback = options.BinaryFormatterFallbackTypes.Count > 0 ? new BinaryFormatterCodec([.. options.BinaryFormatterFallbackTypes]) : null;
        var userCodecs = options.Codecs.Select(codec => new UserCodecAdapter(codec)).ToArray();
        _chain = new CodecChain(userCodecs, registry, options.Model ?? new ProtoModel(), fallback);

        _readers = new ReaderTable(
        [
            .. NativeCodecs.Readers,
            .. userCodecs,
            new ObjectFamilyReader(TranscoderFlags.ProtobufMessage, _chain, registry),
            new ObjectFamilyReader(TranscoderFlags.EngineObject, _chain, registry),
            fallback is null ? new RefusingReader(TranscoderFlags.BinaryFormatter, TranscoderThrow.BinaryFormatterOff) : fallback,
        ]);

        // Aliased and known types resolve from the first read: their codecs are built (and their names registered)
        // now, which also checks that each is stored with a type header.
        RegisterObjectTypes(options.TypeAliases.Keys, nameof(options.TypeAliases));
        RegisterObjectTypes(options.KnownTypes, nameof(options.KnownTypes));
    }

    /// <summary>Serializes a value into flags and payload bytes.</summary>
    /// <param name="value">The value; <see langword="null"/> is stored (flag 0x0102) and reads back as null.</param>
    /// <returns>The item; for a byte[] or ArraySegment&lt;byte&gt; stored uncompressed, its payload shares the caller's array.</returns>
    /// <exception cref="TranscoderException">No codec stores the value's type, a codec failed, or the stored form is larger than
    /// <see cref="ProtobufTranscoderOptions.MaxItemSize"/>.</exception>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            return new CacheItem(TranscoderFlags.Null, NullCodec.Payload);
        }

        var type = value.GetType();
        var writer = _chain.For(type);
        var flags = writer.Flags;
        ArraySegment<byte> payload;
        try
        {
            payload = writer.Write(value);
            if (_compression != TranscoderCompression.None
                && writer.Compressible
                && payload.Count >= _compressionThreshold
                && PayloadCompressor.TryCompress(payload, _compression, _compressionLevel, _maxItemSize, _maxDecompressionRatio) is { } compressed)
            {
                payload = compressed;
                flags |= TranscoderFlags.CompressedBit;
            }
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw TranscoderThrow.WriteFailed(flags, type, e);
        }

        if (payload.Count > _maxItemSize)
        {
            TranscoderThrow.TooLarge(type, flags, payload.Count, _maxItemSize);
        }

        return new CacheItem(flags, payload);
    }

    /// <summary>Deserializes an item into the value it was written from, of its stored runtime type.</summary>
    /// <param name="item">The stored item.</param>
    /// <returns>The value. An enum comes back as its underlying integer (read it with <see cref="Deserialize{T}"/> for the enum).</returns>
    /// <exception cref="TranscoderException">The item is malformed, names a type this transcoder does not know or refuses,
    /// or is under flags nothing here reads.</exception>
    public object? Deserialize(CacheItem item) => Deserialize<object>(item);

    /// <summary>Deserializes an item into a <typeparamref name="T"/>.</summary>
    /// <typeparam name="T">The expected type: the stored type, a base of it, its enum, or its nullable form.</typeparam>
    /// <param name="item">The stored item.</param>
    /// <returns>The value; null only for an item holding null, with a <typeparamref name="T"/> that can hold it.</returns>
    /// <exception cref="TranscoderException">The item is malformed, holds something that is not a <typeparamref name="T"/>,
    /// names a type this transcoder does not know or refuses, or is under flags nothing here reads.</exception>
    public T? Deserialize<T>(CacheItem item)
    {
        var flags = item.Flags;
        var reader = _readers.Find(flags, out var compressed);
        if (reader is null)
        {
            return ReadWithInner<T>(item);
        }

        try
        {
            ReadOnlyMemory<byte> payload = item.Data;
            if (compressed)
            {
                payload = PayloadCompressor.Decompress(payload, flags, _maxItemSize, _maxDecompressionRatio);
            }

            // The exact type asked for: read without boxing.
            if (reader is Codec<T> typed)
            {
                return typed.ReadValue(payload.Span);
            }

            var value = reader.Read(payload, typeof(T) == typeof(object) ? null : typeof(T));
            return ValueConverter.To<T>(value, flags);
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw TranscoderThrow.ReadFailed(flags, typeof(T), e);
        }
    }

    private T? ReadWithInner<T>(CacheItem item)
    {
        if (_inner is null)
        {
            return TranscoderThrow.UnknownFlags<T>(item.Flags);
        }

        try
        {
            return typeof(T) == typeof(object) ? (T?)_inner.Deserialize(item) : _inner.Deserialize<T>(item);
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw TranscoderThrow.ReadFailed(item.Flags, typeof(T), e);
        }
    }

    private void RegisterObjectTypes(IEnumerable<Type> types, string property)
    {
        foreach (var type in types)
        {
            switch (_chain.For(type))
            {
                case ObjectCodec:
                    break;
                case UnstorableWriter unstorable:
                    TranscoderThrow.InvalidOption(property, $"contains {type}, which cannot be stored: {unstorable.Reason}");
                    break;
                default:
                    TranscoderThrow.InvalidOption(
                        property, $"contains {type}, which is not stored with a type header (only Google.Protobuf messages and protobuf contracts are).");
                    break;
            }
        }
    }
}
