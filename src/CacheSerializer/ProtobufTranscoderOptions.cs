using System.IO.Compression;
using CacheSerializer.Transcoding;
using CacheSerializer.Protobuf;

namespace CacheSerializer;

/// <summary>
/// Configures a <see cref="ProtobufTranscoder"/>. The transcoder validates and copies the options when it is created:
/// changing them afterwards does not change a transcoder already built.
/// </summary>
public sealed class ProtobufTranscoderOptions
{
    /// <summary>memcached's default item size limit (its <c>-I</c> option), 1 MiB.</summary>
    public const int DefaultMaxItemSize = 1024 * 1024;

    /// <summary>Gets or sets the largest stored payload, in bytes; a value storing as more throws at Serialize.</summary>
    /// <value>1048576 (memcached's default 1 MiB item limit). Must be at least 1.</value>
    /// <remarks>memcached counts the key and about 50 bytes of item header against its own limit too: leave a margin.</remarks>
    public int MaxItemSize { get; set; } = DefaultMaxItemSize;

    /// <summary>Gets or sets the algorithm large payloads are compressed with.</summary>
    /// <value><see cref="TranscoderCompression.None"/>: compression is off.</value>
    public TranscoderCompression Compression { get; set; } = TranscoderCompression.None;

    /// <summary>Gets or sets the payload size, in bytes, from which compression is tried; it is kept only when smaller.</summary>
    /// <value>1024. Must be 0 or more.</value>
    public int CompressionThreshold { get; set; } = 1024;

    /// <summary>Gets or sets the compression level.</summary>
    /// <value><see cref="System.IO.Compression.CompressionLevel.Fastest"/>.</value>
    public CompressionLevel CompressionLevel { get; set; } = CompressionLevel.Fastest;

    /// <summary>
    /// Gets or sets the largest expansion accepted when reading a compressed item: its declared uncompressed size may be
    /// at most <see cref="MaxItemSize"/>, or this many times its stored size if that is more, so a hostile item cannot
    /// make a reader allocate more. A writer stores a payload that would exceed that limit uncompressed instead.
    /// </summary>
    /// <value>64. Must be 2-1024.</value>
    public int MaxDecompressionRatio { get; set; } = 64;

    /// <summary>
    /// Gets or sets the transcoder that reads items under flags this one does not own (docs/format.md); <see langword="null"/>
    /// makes such an item a <see cref="TranscoderException"/>.
    /// </summary>
    /// <value>A reader of EnyimMemcachedCore DefaultTranscoder's BSON object entries (flags 0x0101 and 0x010F).</value>
    public ITranscoder? InnerTranscoder { get; set; } = EnyimBsonTranscoder.Instance;

    /// <summary>
    /// Gets or sets the protobuf engine model that stores objects: configure types that cannot be annotated (field
    /// numbers, subtypes, surrogates) on it before the first use. The transcoder shares it, so one model can serve a
    /// transcoder and code that calls the engine directly.
    /// </summary>
    /// <value><see langword="null"/>: the transcoder creates a model with the defaults of its own.</value>
    public ProtoModel? Model { get; set; }

    /// <summary>Gets the application's own codecs; each wins over every built-in codec for its exact type.</summary>
    /// <value>Empty. No two codecs may share a flag or a type.</value>
    public IList<CacheCodec> Codecs { get; } = new List<CacheCodec>();

    /// <summary>
    /// Gets short aliases (1-65535) written in an object payload's type header instead of the type's name: 1-63 take
    /// one byte. An aliased type also resolves from its first read, and items written under its name still read.
    /// </summary>
    /// <value>Empty. No two types may share an alias; each type must be one stored with a type header (an object type).</value>
    public IDictionary<Type, int> TypeAliases { get; } = new Dictionary<Type, int>();

    /// <summary>
    /// Gets object types that resolve by name from the first read, before this transcoder has written one; the
    /// non-generic Deserialize can then return them in a process that only reads.
    /// </summary>
    /// <value>Empty. Each type must be one stored with a type header (an object type).</value>
    public ICollection<Type> KnownTypes { get; } = new HashSet<Type>();

    /// <summary>
    /// Gets the types the BinaryFormatter fallback writes and reads; empty turns the fallback off. Every type a
    /// BinaryFormatter stream names (fields' types included, beyond primitives and strings) must be listed: any other
    /// is refused on read before anything of it is created.
    /// </summary>
    /// <value>Empty: the fallback is off. The application must reference System.Runtime.Serialization.Formatters and set
    /// EnableUnsafeBinaryFormatterSerialization on .NET 9 and later.</value>
    public ICollection<Type> BinaryFormatterFallbackTypes { get; } = new HashSet<Type>();

    internal void Validate()
    {
        if (MaxItemSize < 1)
        {
            TranscoderThrow.InvalidOption(nameof(MaxItemSize), $"must be at least 1 byte, not {MaxItemSize}.");
        }

        if (!Enum.IsDefined(Compression))
        {
            TranscoderThrow.InvalidOption(nameof(Compression), $"must be None, Brotli, Deflate or ZLib, not {(int)Compression}.");
        }

        if (CompressionThreshold < 0)
        {
            TranscoderThrow.InvalidOption(nameof(CompressionThreshold), $"must be 0 or more, not {CompressionThreshold}.");
        }

        if (!Enum.IsDefined(CompressionLevel))
        {
            TranscoderThrow.InvalidOption(nameof(CompressionLevel), $"is not a CompressionLevel: {(int)CompressionLevel}.");
        }

        if (MaxDecompressionRatio is < 2 or > 1024)
        {
            TranscoderThrow.InvalidOption(nameof(MaxDecompressionRatio), $"must be 2-1024, not {MaxDecompressionRatio}.");
        }

        ValidateCodecs();
        ValidateTypes();
    }

    private void ValidateCodecs()
    {
        var flags = new Dictionary<uint, CacheCodec>();
        var types = new Dictionary<Type, CacheCodec>();
        foreach (var codec in Codecs)
        {
            if (codec is null)
            {
                TranscoderThrow.InvalidOption(nameof(Codecs), "contains null.");
            }

            if (!flags.TryAdd(codec.Flags, codec))
            {
                TranscoderThrow.InvalidOption(nameof(Codecs), $"has two codecs under flag 0x{codec.Flags:X4}: {flags[codec.Flags].GetType()} and {codec.GetType()}.");
            }

            if (!types.TryAdd(codec.Type, codec))
            {
                TranscoderThrow.InvalidOption(nameof(Codecs), $"has two codecs for {codec.Type}: {types[codec.Type].GetType()} and {codec.GetType()}.");
            }
        }
    }

    private void ValidateTypes()
    {
        var aliases = new Dictionary<int, Type>();
        foreach (var (type, alias) in TypeAliases)
        {
            if (alias is < 1 or > TypeHeader.MaxAlias)
            {
                TranscoderThrow.InvalidOption(nameof(TypeAliases), $"gives {type} alias {alias}; an alias is 1-{TypeHeader.MaxAlias}.");
            }

            if (!aliases.TryAdd(alias, type))
            {
                TranscoderThrow.InvalidOption(nameof(TypeAliases), $"gives alias {alias} to both {aliases[alias]} and {type}.");
            }
        }

        if (KnownTypes.Contains(null!))
        {
            TranscoderThrow.InvalidOption(nameof(KnownTypes), "contains null.");
        }

        foreach (var type in BinaryFormatterFallbackTypes)
        {
            if (type is null || type.IsGenericTypeDefinition || type.FullName is null)
            {
                TranscoderThrow.InvalidOption(nameof(BinaryFormatterFallbackTypes), $"must hold closed types, not {type?.ToString() ?? "null"}.");
            }
        }
    }
}
