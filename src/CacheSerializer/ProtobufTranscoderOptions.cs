using System.IO.Compression;
using CacheSerializer.Transcoding;
using CacheSerializer.Transcoding.Codecs.Legacy;
using ProtoBuf.Meta;

namespace CacheSerializer;

/// <summary>
/// Configures a <see cref="ProtobufTranscoder"/>. The transcoder validates and copies the options when it is created:
/// changing them afterwards does not change a transcoder already built.
/// </summary>
public sealed class ProtobufTranscoderOptions
{
    /// <summary>memcached's default item size limit (its <c>-I</c> option), 1 MiB: the default of every MaxValueSize of the package.</summary>
    public const int DefaultMaxValueSize = 1024 * 1024;

    /// <summary>Gets or sets the largest stored payload, in bytes; a value storing as more throws at Serialize.</summary>
    /// <value>1048576 (memcached's default 1 MiB item limit). Must be at least 1.</value>
    /// <remarks>
    /// For a transcoder called directly (an application's own client). Inside <c>MemcachedClient</c> the limit is the
    /// client's <c>MemcachedClientOptions.MaxValueSize</c>, the one setting: the client runs its transcoder with it (a
    /// <see cref="ProtobufTranscoder"/> it is given is used with the client's limit), and this value is not used.
    /// memcached counts the key and about 50 bytes of item header against its own limit too: leave a margin.
    /// </remarks>
    public int MaxValueSize { get; set; } = DefaultMaxValueSize;

    /// <summary>Gets or sets the algorithm large payloads are compressed with.</summary>
    /// <value>
    /// <see cref="TranscoderCompression.Zstandard"/> (at the default <see cref="CompressionLevel"/>, zstd level 1): object
    /// payloads of <see cref="CompressionThreshold"/> bytes and more are stored compressed when that is smaller; strings and
    /// byte arrays keep EnyimMemcachedCore's bytes unless <see cref="CompressStringsAndBytes"/> is set.
    /// </value>
    /// <remarks>
    /// The default is chosen by measurement in the default load test (issue 24; docs/benchmarks.md, "Compression by
    /// default"): it stores 0.73x the bytes of BinaryFormatter + Deflate (uncompressed: 1.91x) at 0.76-0.87x the
    /// uncompressed transcoder's throughput by CPU per operation (three runs). <see cref="TranscoderCompression.Lz4"/> costs
    /// the least CPU (0.88-0.94x) at 0.91x BinaryFormatter + Deflate's bytes; <see cref="TranscoderCompression.Zstandard"/> at
    /// <see cref="System.IO.Compression.CompressionLevel.Optimal"/> stores the fewest (0.65x) at about the same CPU as
    /// level 1; <see cref="TranscoderCompression.None"/> turns compression off.
    /// </remarks>
    public TranscoderCompression Compression { get; set; } = TranscoderCompression.Zstandard;

    /// <summary>
    /// Gets or sets whether strings and byte arrays are compressed too (under flags 0x0192 and 0xFAD2), not only object
    /// payloads. An EnyimMemcachedCore application sharing the cache cannot read them then: leave it off during a migration.
    /// </summary>
    /// <value><see langword="false"/>: strings (0x0112) and byte arrays (0xFA52) are stored as EnyimMemcachedCore stores them.</value>
    /// <remarks>Items written either way read back whatever this setting: the compression bit in the flags says which.</remarks>
    public bool CompressStringsAndBytes { get; set; }

    /// <summary>Gets or sets the payload size, in bytes, from which compression is tried; it is kept only when smaller.</summary>
    /// <value>1024. Must be 0 or more.</value>
    public int CompressionThreshold { get; set; } = 1024;

    /// <summary>Gets or sets the compression level.</summary>
    /// <value><see cref="System.IO.Compression.CompressionLevel.Fastest"/>.</value>
    /// <remarks>
    /// Brotli, Deflate and ZLib use System.IO.Compression's meaning of each level. Zstandard: Fastest (and NoCompression) is
    /// zstd level 1, Optimal level 3 (zstd's default), SmallestSize level 19. LZ4: Fastest (and NoCompression) is its fast
    /// encoder, Optimal high-compression level 9, SmallestSize level 12. The level only changes how hard the writer works:
    /// every level reads back the same way.
    /// </remarks>
    public CompressionLevel CompressionLevel { get; set; } = CompressionLevel.Fastest;

    /// <summary>
    /// Gets or sets the largest expansion accepted when reading a compressed item: its declared uncompressed size may be
    /// at most <see cref="MaxValueSize"/>, or this many times its stored size if that is more, so a hostile item cannot
    /// make a reader allocate more. A writer stores a payload that would exceed that limit uncompressed instead.
    /// </summary>
    /// <value>64. Must be 2-1024.</value>
    public int MaxDecompressionRatio { get; set; } = 64;

    /// <summary>Gets or sets how objects are written: protobuf, or as EnyimMemcachedCore's DefaultTranscoder writes them.</summary>
    /// <value>
    /// <see cref="TranscoderObjectFormat.Protobuf"/>. <c>AddMemcached</c> bound to an EnyimMemcachedCore section
    /// (docs/migrating-from-enyim.md) defaults to <see cref="TranscoderObjectFormat.EnyimBson"/>, the migration phase.
    /// </value>
    /// <remarks>
    /// Natives, strings and byte arrays are written alike in both (EnyimMemcachedCore's bytes), and items of both formats
    /// read back whatever this setting, so flipping it is safe at any time for this package's readers: only
    /// EnyimMemcachedCore applications cannot read protobuf items.
    /// </remarks>
    public TranscoderObjectFormat ObjectFormat { get; set; } = TranscoderObjectFormat.Protobuf;

    /// <summary>
    /// Gets or sets what reads the items under flags this transcoder does not own, another library's entries (docs/format.md,
    /// "Items this transcoder does not own"); <see langword="null"/> makes such an item a <see cref="TranscoderException"/>.
    /// </summary>
    /// <remarks>Not a wrapped transcoder: it only reads, and nothing this transcoder writes goes through it.</remarks>
    /// <value>A reader of EnyimMemcachedCore DefaultTranscoder's BSON object entries (flags 0x0101 and 0x010F).</value>
    public ITranscoder? ForeignItemReader { get; set; } = EnyimBsonReader.Instance;

    /// <summary>
    /// Gets or sets the codec of the EnyimMemcachedCore objects (flags 0x0101) this transcoder shares the cache with: what
    /// the migration phase writes them with, and what reads them in both phases; <see langword="null"/> for
    /// DefaultTranscoder's BSON, which after the flip the <see cref="ForeignItemReader"/> reads.
    /// </summary>
    /// <remarks>Set from an EnyimMemcachedCore section's <c>Transcoder</c> setting (MessagePackTranscoder by the
    /// compatibility package, BinaryFormatterTranscoder inside <see cref="BinaryFormatterFallbackTypes"/>): the same flag
    /// holds another format under each of EnyimMemcachedCore's transcoders, so the setting, not the item, says which.</remarks>
    internal EnyimObjectCodec? EnyimObjects { get; set; }

    /// <summary>
    /// Gets or sets the protobuf-net model that stores objects (every value that is not a native type, a Google.Protobuf
    /// message or an application codec's), for example <see cref="RuntimeTypeModel.Default"/> with the application's
    /// surrogates, or a model from <see cref="ProtobufTranscoder.CreateModel"/> with types added.
    /// </summary>
    /// <value>
    /// <see langword="null"/>: the transcoder builds its own with <see cref="ProtobufTranscoder.CreateModel"/>
    /// (<c>AllowParseableTypes</c>, <c>IncludeDateTimeKind</c>, a DateTimeOffset surrogate, and the null-wrapped collection
    /// layout unless <see cref="NullWrappedCollections"/> is off).
    /// </value>
    /// <remarks>
    /// The transcoder changes nothing on a model it is given: it reads it to run its guards (docs/protobuf-format.md, "Refused
    /// at Serialize"), and protobuf-net adds the types it meets, as on any first Serialize. Bodies are exactly what that
    /// model's own Serialize writes, so null-wrapping, DateTime kinds and DateTimeOffset are as the model says; a type the
    /// model cannot store is refused at Serialize. Guards that read the model's types need a <see cref="RuntimeTypeModel"/>;
    /// with a compiled model only the checks through <see cref="TypeModel"/> run.
    /// </remarks>
    public TypeModel? Model { get; set; }

    /// <summary>
    /// Gets or sets whether the transcoder's own model writes every collection member of a contract in protobuf-net's
    /// null-wrapped layout (as if it carried <c>[NullWrappedCollection]</c>), so a null collection and an empty one read
    /// back as they were written; <see langword="false"/> writes plain protobuf-net bytes, where both read back alike.
    /// </summary>
    /// <value>
    /// <see langword="true"/>. Applies to the model the transcoder builds when <see cref="Model"/> is null; a model the
    /// application gives is used as it is (mark members there with <c>[NullWrappedCollection]</c>).
    /// </value>
    /// <remarks>
    /// A protobuf-net application whose members carry <c>[NullWrappedCollection]</c> reads these bodies, and the
    /// transcoder reads its; one without the attribute reads a non-empty wrapped collection as garbage, so share a cache
    /// with plain protobuf-net applications only with this option off.
    /// </remarks>
    public bool NullWrappedCollections { get; set; } = true;

    /// <summary>Gets the application's own codecs; each wins over every built-in codec for its exact type.</summary>
    /// <value>Empty. No two codecs may share a flag or a type.</value>
    public IList<CacheCodec> Codecs { get; } = new List<CacheCodec>();

    /// <summary>
    /// Gets short aliases (1-65535) written in an object payload's type header instead of the type's name: 1-63 take
    /// one byte. An aliased type also resolves from its first read, and items written under its name still read.
    /// </summary>
    /// <value>Empty. No two types may share an alias; each type must be one stored with a type header (a protobuf-net type or a Google.Protobuf message).</value>
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

    /// <summary>Throws when an option is invalid, naming every invalid one at once.</summary>
    /// <exception cref="ArgumentException">One or more options are invalid; the message has a line for each.</exception>
    internal void Validate()
    {
        List<(string Property, string Problem)> problems = [.. Problems()];
        if (problems.Count > 0)
        {
            Transcoding.ThrowHelper.ThrowInvalidTranscoderOptions(problems);
        }
    }

    /// <summary>Every problem of the options, each naming the property and what is wrong with its value.</summary>
    internal IEnumerable<(string Property, string Problem)> Problems()
    {
        if (MaxValueSize < 1)
        {
            yield return (nameof(MaxValueSize), $"must be at least 1 byte, not {MaxValueSize}.");
        }

        if (!Enum.IsDefined(Compression))
        {
            yield return (nameof(Compression), $"must be None, Brotli, Deflate, ZLib, Zstandard or Lz4, not {(int)Compression}.");
        }

        if (!Enum.IsDefined(ObjectFormat))
        {
            yield return (nameof(ObjectFormat), $"must be Protobuf or EnyimBson, not {(int)ObjectFormat}.");
        }

        if (CompressionThreshold < 0)
        {
            yield return (nameof(CompressionThreshold), $"must be 0 or more, not {CompressionThreshold}.");
        }

        if (!Enum.IsDefined(CompressionLevel))
        {
            yield return (nameof(CompressionLevel), $"is not a CompressionLevel: {(int)CompressionLevel}.");
        }

        if (MaxDecompressionRatio is < 2 or > 1024)
        {
            yield return (nameof(MaxDecompressionRatio), $"must be 2-1024, not {MaxDecompressionRatio}.");
        }

        foreach ((string, string) problem in CodecProblems().Concat(TypeProblems()))
        {
            yield return problem;
        }
    }

    private IEnumerable<(string Property, string Problem)> CodecProblems()
    {
        var flags = new Dictionary<uint, CacheCodec>();
        var types = new Dictionary<Type, CacheCodec>();
        foreach (CacheCodec codec in Codecs)
        {
            if (codec is null)
            {
                yield return (nameof(Codecs), "contains null.");
                continue;
            }

            if (!flags.TryAdd(codec.Flags, codec))
            {
                yield return (nameof(Codecs), $"has two codecs under flag 0x{codec.Flags:X4}: {flags[codec.Flags].GetType()} and {codec.GetType()}.");
            }

            if (!types.TryAdd(codec.Type, codec))
            {
                yield return (nameof(Codecs), $"has two codecs for {codec.Type}: {types[codec.Type].GetType()} and {codec.GetType()}.");
            }
        }
    }

    private IEnumerable<(string Property, string Problem)> TypeProblems()
    {
        var aliases = new Dictionary<int, Type>();
        foreach ((Type? type, int alias) in TypeAliases)
        {
            if (alias is < 1 or > TypeHeader.MaxAlias)
            {
                yield return (nameof(TypeAliases), $"gives {type} alias {alias}; an alias is 1-{TypeHeader.MaxAlias}.");
            }

            if (!aliases.TryAdd(alias, type))
            {
                yield return (nameof(TypeAliases), $"gives alias {alias} to both {aliases[alias]} and {type}.");
            }
        }

        if (KnownTypes.Contains(null!))
        {
            yield return (nameof(KnownTypes), "contains null.");
        }

        foreach (Type type in BinaryFormatterFallbackTypes)
        {
            if (type is null || type.IsGenericTypeDefinition || type.FullName is null)
            {
                yield return (nameof(BinaryFormatterFallbackTypes), $"must hold closed types, not {type?.ToString() ?? "null"}.");
            }
        }
    }
}
