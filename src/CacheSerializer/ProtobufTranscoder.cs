using System.Buffers;
using System.IO.Compression;
using CacheSerializer.Transcoding;
using CacheSerializer.Transcoding.Codecs;
using CacheSerializer.Transcoding.Codecs.Legacy;
using CacheSerializer.Transcoding.Codecs.Objects;
using CacheSerializer.Transcoding.Codecs.Primitive;
using CacheSerializer.Transcoding.ProtobufNet;
using ProtoBuf.Meta;

namespace CacheSerializer;

/// <summary>
/// Stores .NET primitives natively (with EnyimMemcachedCore DefaultTranscoder's flags and bytes where it has them),
/// Google.Protobuf messages through their generated code, and every other object through protobuf-net; reads everything
/// it wrote, and DefaultTranscoder's entries through its <see cref="ProtobufTranscoderOptions.ForeignItemReader"/>. The byte format is docs/format.md.
/// </summary>
/// <remarks>
/// A value's type picks one codec, once per type (an application <see cref="CacheCodec{T}"/>, then the natives, then
/// Google.Protobuf messages, then protobuf-net, then the opt-in BinaryFormatter fallback). protobuf-net's part is
/// guarded: a type it would store lossily (an undeclared subtype, a collection class with members of its own, ...) is
/// refused at its first Serialize. Reading picks the codec by the item's flags alone and never loads a type named by a
/// payload. Thread-safe. Deserialize keeps no reference to the item's array, so a client may reuse its receive buffer
/// as soon as the call returns.
/// </remarks>
public sealed class ProtobufTranscoder : ITranscoder
{
    private readonly CodecChain _chain;
    private readonly ReaderTable _readers;
    private readonly ITranscoder? _foreignItemReader;
    private readonly int _maxValueSize;
    private readonly TranscoderCompression _compression;
    private readonly CompressionLevel _compressionLevel;
    private readonly int _compressionThreshold;
    private readonly bool _compressStringsAndBytes;
    private readonly int _maxDecompressionRatio;

    /// <summary>Creates a transcoder with the default options (object payloads of 1 KiB and more compressed with Zstandard, no fallback, 1 MiB item limit).</summary>
    public ProtobufTranscoder()
        : this(new ProtobufTranscoderOptions())
    {
    }

    /// <summary>Creates a transcoder from validated options; later changes to <paramref name="options"/> do not affect it.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentException">One or more options are invalid; the message has a line for each, naming the property.</exception>
    /// <exception cref="TranscoderException"><see cref="ProtobufTranscoderOptions.NullWrappedCollections"/> is on, no model is given, and
    /// the protobuf-net in use does not let the null-wrapped layout be applied (see <see cref="CreateModel"/>).</exception>
    public ProtobufTranscoder(ProtobufTranscoderOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();

        _foreignItemReader = options.ForeignItemReader;
        _maxValueSize = options.MaxValueSize;
        _compression = options.Compression;
        _compressionLevel = options.CompressionLevel;
        _compressionThreshold = options.CompressionThreshold;
        _compressStringsAndBytes = options.CompressStringsAndBytes;
        _maxDecompressionRatio = options.MaxDecompressionRatio;
        ObjectFormat = options.ObjectFormat;

        var registry = new TypeRegistry(new Dictionary<Type, int>(options.TypeAliases));
        BinaryFormatterCodec? fallback = options.BinaryFormatterFallbackTypes.Count > 0 ? new BinaryFormatterCodec([.. options.BinaryFormatterFallbackTypes]) : null;
        UserCodecAdapter[] userCodecs = options.Codecs.Select(codec => new UserCodecAdapter(codec)).ToArray();
        _chain = new CodecChain(userCodecs, registry, new ProtobufNetAdapter(options.Model ?? CreateModel(options.NullWrappedCollections)), fallback, options.ObjectFormat, options.EnyimObjects);

        _readers = new ReaderTable(
        [
            .. NativeCodecs.Readers,
            .. userCodecs,
            new ObjectFamilyReader(TranscoderFlags.ProtobufMessage, _chain, registry),
            new ObjectFamilyReader(TranscoderFlags.ProtobufNetObject, _chain, registry),
            fallback is null ? new RefusingReader(TranscoderFlags.BinaryFormatter, Transcoding.ThrowHelper.ThrowBinaryFormatterOff) : fallback,

            // The migration phase reads the EnyimMemcachedCore objects it writes itself, whatever the foreign-item reader;
            // another transcoder's than DefaultTranscoder's are read in that format after the flip too, until they expire.
            .. (IEnumerable<IValueReader>)(options.ObjectFormat == TranscoderObjectFormat.EnyimBson || options.EnyimObjects is not null
                ? [options.EnyimObjects ?? EnyimBsonCodec.Objects, EnyimBsonCodec.LegacyDecimals]
                : []),
        ]);

        // Aliased and known types resolve from the first read: their codecs are built (and their names registered)
        // now, which also checks that each is stored with a type header.
        List<(string Property, string Problem)> problems =
            [.. RegisterObjectTypes(options.TypeAliases.Keys, nameof(options.TypeAliases)), .. RegisterObjectTypes(options.KnownTypes, nameof(options.KnownTypes))];
        if (problems.Count > 0)
        {
            Transcoding.ThrowHelper.ThrowInvalidTranscoderOptions(problems);
        }
    }

    private ProtobufTranscoder(ProtobufTranscoder source, int maxValueSize)
    {
        _chain = source._chain;
        _readers = source._readers;
        _foreignItemReader = source._foreignItemReader;
        _maxValueSize = maxValueSize;
        _compression = source._compression;
        _compressionLevel = source._compressionLevel;
        _compressionThreshold = source._compressionThreshold;
        _compressStringsAndBytes = source._compressStringsAndBytes;
        _maxDecompressionRatio = source._maxDecompressionRatio;
        ObjectFormat = source.ObjectFormat;
    }

    /// <summary>Gets the largest payload this transcoder stores (<see cref="ProtobufTranscoderOptions.MaxValueSize"/>).</summary>
    internal int MaxValueSize => _maxValueSize;

    /// <summary>Gets how objects are written: anything but <see cref="TranscoderObjectFormat.Protobuf"/> is the migration
    /// phase from EnyimMemcachedCore, whose clients still read the cache (<see cref="Memcached.Internal.Configuration.ClientSettings.MigrationPhase"/>).</summary>
    internal TranscoderObjectFormat ObjectFormat { get; }

    /// <summary>This transcoder with another size limit, sharing its contracts, codecs and caches: what a client uses, with its own limit.</summary>
    internal ProtobufTranscoder WithMaxValueSize(int maxValueSize) => maxValueSize == _maxValueSize ? this : new ProtobufTranscoder(this, maxValueSize);

    /// <summary>
    /// Creates a protobuf-net model configured as the transcoder's own: <c>AllowParseableTypes</c> (Version, IPAddress, ...
    /// as strings), <c>IncludeDateTimeKind</c> (a DateTime keeps its Kind), a surrogate for DateTimeOffset (which
    /// protobuf-net has no layout for; its offset is kept), and optionally protobuf-net's null-wrapped layout on every
    /// collection member of the contracts it adds from their attributes.
    /// </summary>
    /// <param name="nullWrappedCollections">Whether collection members get the null-wrapped layout (<c>[NullWrappedCollection]</c>), so null
    /// and empty read back apart; see <see cref="ProtobufTranscoderOptions.NullWrappedCollections"/>.</param>
    /// <returns>A new model: add types, subtypes and surrogates to it, then pass it as <see cref="ProtobufTranscoderOptions.Model"/>.</returns>
    /// <exception cref="TranscoderException"><paramref name="nullWrappedCollections"/> is set and the protobuf-net in use does not let the
    /// layout be applied at model-build time (it does on 3.4.40); the message says what to do.</exception>
    public static RuntimeTypeModel CreateModel(bool nullWrappedCollections = true) => ProtobufNetAdapter.CreateModel(nullWrappedCollections);

    /// <summary>Describes the contract this transcoder stores <paramref name="type"/> under: what its items' fingerprint is the hash of.</summary>
    /// <param name="type">An object type stored with a type header: a protobuf-net type (contract, or collection of them) or a Google.Protobuf message.</param>
    /// <returns>The type's contract in this build.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="type"/> is null.</exception>
    /// <exception cref="TranscoderException">The type cannot be stored (the reason Serialize would give), or is not stored with a
    /// type header (a native type, an application codec's type, a BinaryFormatter fallback type: those items carry no contract).</exception>
    public CacheContract DescribeContract(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        return _chain.For(type) switch
        {
            ObjectCodec codec => new CacheContract(type, codec.Name, codec.Fingerprint, codec.Contract),
            UnstorableWriter unstorable => throw unstorable.CreateException(),
            _ => throw Transcoding.ThrowHelper.NoContractDescribed(type),
        };
    }

    /// <summary>Describes the contracts this transcoder stores each of <paramref name="types"/> under, in the order given.</summary>
    /// <param name="types">Object types, as for <see cref="DescribeContract"/>.</param>
    /// <returns>One contract per type.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="types"/> is null.</exception>
    /// <exception cref="TranscoderException">A type cannot be stored, or is not stored with a type header.</exception>
    public IReadOnlyList<CacheContract> DescribeContracts(IEnumerable<Type> types)
    {
        ArgumentNullException.ThrowIfNull(types);
        return [.. types.Select(DescribeContract)];
    }

    /// <summary>Serializes a value into flags and payload bytes.</summary>
    /// <param name="value">The value; <see langword="null"/> is stored (flag 0x0102) and reads back as null.</param>
    /// <returns>The item; for a byte[] or ArraySegment&lt;byte&gt; stored uncompressed, its payload shares the caller's array.</returns>
    /// <exception cref="TranscoderException">No codec stores the value's type, a codec failed, or the stored form is larger than
    /// <see cref="ProtobufTranscoderOptions.MaxValueSize"/>.</exception>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            return new CacheItem(TranscoderFlags.Null, NullCodec.Payload);
        }

        Type type = value.GetType();
        IValueWriter writer = _chain.WriterFor(type);
        uint flags = writer.Flags;
        ArraySegment<byte> payload;
        try
        {
            payload = writer.Write(value);
            if (_compression != TranscoderCompression.None
                && writer.Compressible
                && (_compressStringsAndBytes || TranscoderFlags.IsOwn(flags))
                && payload.Count >= _compressionThreshold
                && PayloadCompressor.TryCompress(payload, _compression, _compressionLevel, _maxValueSize, _maxDecompressionRatio) is { } compressed)
            {
                payload = compressed;
                flags |= TranscoderFlags.CompressedBit;
            }
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw Transcoding.ThrowHelper.WriteFailed(flags, type, e);
        }

        if (payload.Count > _maxValueSize)
        {
            Transcoding.ThrowHelper.ThrowTooLarge(type, flags, payload.Count, _maxValueSize);
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
        uint flags = item.Flags;
        IValueReader? reader = _readers.Find(flags, out bool compressed);
        if (reader is null)
        {
            return ReadForeignItem<T>(item);
        }

        byte[]? rented = null;
        try
        {
            ReadOnlyMemory<byte> payload = item.Data;
            if (compressed)
            {
                payload = PayloadCompressor.Decompress(payload, flags, _maxValueSize, _maxDecompressionRatio, out rented);
            }

            // The exact type asked for: read without boxing.
            if (reader is Codec<T> typed)
            {
                return typed.ReadValue(payload.Span);
            }

            object? value = reader.Read(payload, typeof(T) == typeof(object) ? null : typeof(T));
            return ValueConverter.To<T>(value, flags);
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw Transcoding.ThrowHelper.ReadFailed(flags, typeof(T), e);
        }
        finally
        {
            // Every reader copies what it keeps (the same rule that lets a client reuse its receive buffer).
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private T? ReadForeignItem<T>(CacheItem item)
    {
        if (_foreignItemReader is null)
        {
            return Transcoding.ThrowHelper.ThrowUnknownFlags<T>(item.Flags);
        }

        try
        {
            return typeof(T) == typeof(object) ? (T?)_foreignItemReader.Deserialize(item) : _foreignItemReader.Deserialize<T>(item);
        }
        catch (Exception e) when (e is not (TranscoderException or OutOfMemoryException))
        {
            throw Transcoding.ThrowHelper.ReadFailed(item.Flags, typeof(T), e);
        }
    }

    /// <summary>Builds the codecs of the types an option names, and returns a problem for each that cannot be one.</summary>
    private List<(string Property, string Problem)> RegisterObjectTypes(IEnumerable<Type> types, string property)
    {
        var problems = new List<(string Property, string Problem)>();
        foreach (Type type in types)
        {
            switch (_chain.For(type))
            {
                case ObjectCodec:
                    break;
                case UnstorableWriter unstorable:
                    problems.Add((property, $"contains {type}, which cannot be stored: {unstorable.Reason}"));
                    break;
                default:
                    problems.Add((property, $"contains {type}, which is not stored with a type header (only Google.Protobuf messages and protobuf-net types are)."));
                    break;
            }
        }

        return problems;
    }
}
