using System.IO.Compression;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>Every contender, in the order reports show them; the benchmarks, the tests and the load test all take them from here.</summary>
public static class ContenderCatalog
{
    /// <summary>The name of the baseline, EnyimMemcachedCore's DefaultTranscoder storing objects as BSON.</summary>
    public const string Bson = "BSON";

    /// <summary>The name of BinaryFormatter as Enyim's original DefaultTranscoder used it.</summary>
    public const string BinaryFormatter = "BinaryFormatter";

    /// <summary>The name of BinaryFormatter + Deflate, the production team's original.</summary>
    public const string DeflateBinaryFormatter = "BinaryFormatter+Deflate";

    /// <summary>The name of System.Text.Json with source generation.</summary>
    public const string SystemTextJson = "System.Text.Json";

    /// <summary>The name of DataContractSerializer with the binary XML writer.</summary>
    public const string DataContractBinary = "DataContract+BinaryXml";

    /// <summary>The name of Google.Protobuf generated code, the protobuf ceiling.</summary>
    public const string GoogleProtobuf = "Google.Protobuf";

    /// <summary>The name of the plain copy of the payload bytes, the floor.</summary>
    public const string PlainCopy = "PlainCopy";

    /// <summary>The name of MessagePack-CSharp on the peer models, uncompressed.</summary>
    public const string MessagePack = "MessagePack";

    /// <summary>The name of MessagePack-CSharp on the peer models with its LZ4 block-array compression.</summary>
    public const string MessagePackLz4 = "MessagePack+Lz4BlockArray";

    /// <summary>The name of MemoryPack on the peer models.</summary>
    public const string MemoryPack = "MemoryPack";

    /// <summary>The name of raw protobuf-net on the workload classes (the transcoder's model, no header).</summary>
    public const string ProtobufNet = "protobuf-net";

    /// <summary>The name of this package's transcoder with its defaults (since issue 24: object payloads of 1 KiB and more compressed with Zstandard level 1).</summary>
    public const string CacheSerializer = "CacheSerializer";

    /// <summary>The name of this package's transcoder with Brotli compression (items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerCompressed = "CacheSerializer+Brotli";

    /// <summary>
    /// The name of this package's transcoder with LZ4 compression at its default level (items of 1 KiB and more, when
    /// smaller): the recommended setting, chosen by bytes x CPU (docs/benchmarks.md, "Compression").
    /// </summary>
    public const string CacheSerializerLz4 = "CacheSerializer+LZ4";

    /// <summary>The name of this package's transcoder with Zstandard compression at its default level (zstd 1; items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerZstandard = "CacheSerializer+Zstd";

    /// <summary>The name of this package's transcoder with compression off (<see cref="TranscoderCompression.None"/>): the reference for what compression costs.</summary>
    public const string CacheSerializerUncompressed = "CacheSerializer+None";

    /// <summary>The name of this package's transcoder with LZ4's high-compression encoder (level 9, CompressionLevel.Optimal; items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerLz4High = "CacheSerializer+LZ4HC";

    /// <summary>The name of this package's transcoder with Zstandard level 3 (CompressionLevel.Optimal, zstd's own default; items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerZstandard3 = "CacheSerializer+Zstd3";

    /// <summary>The name of this package's transcoder with raw Deflate at CompressionLevel.Fastest (items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerDeflate = "CacheSerializer+Deflate";

    /// <summary>
    /// The name of this package's transcoder, uncompressed, with a one-byte type alias registered for each workload's root
    /// type (the default writes a 5-byte hash of the type's name in every object item).
    /// </summary>
    public const string CacheSerializerAliased = "CacheSerializer+Aliases";

    // This package's configurations, by name: built with the defaults for the catalog, and again with a larger item
    // limit for runs that store larger items (Get(name, maxValueSize)).
    private static readonly Dictionary<string, Func<ProtobufTranscoderOptions>> OwnConfigurations = new()
    {
        [CacheSerializer] = static () => new ProtobufTranscoderOptions(),
        [CacheSerializerCompressed] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Brotli },
        [CacheSerializerLz4] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Lz4 },
        [CacheSerializerZstandard] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Zstandard },
        [CacheSerializerUncompressed] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.None },
        [CacheSerializerLz4High] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Lz4, CompressionLevel = CompressionLevel.Optimal },
        [CacheSerializerZstandard3] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Zstandard, CompressionLevel = CompressionLevel.Optimal },
        [CacheSerializerDeflate] = static () => new ProtobufTranscoderOptions { Compression = TranscoderCompression.Deflate },
        [CacheSerializerAliased] = AliasedOptions,
    };

    /// <summary>Gets every contender.</summary>
    public static IReadOnlyList<Contender> All { get; } =
    [
        new(Bson, new EnyimBsonTranscoder()),
        new(BinaryFormatter, new BinaryFormatterTranscoder()),
        new(DeflateBinaryFormatter, new DeflateBinaryFormatterTranscoder()),
        new(SystemTextJson, new SystemTextJsonTranscoder()),
        new(DataContractBinary, new DataContractBinaryTranscoder()),
        new(GoogleProtobuf, new GoogleProtobufTranscoder(), ContenderInput.ProtobufMessage),
        new(PlainCopy, new PlainCopyTranscoder(), ContenderInput.Payload),
        new(MessagePack, new MessagePackTranscoder(), ContenderInput.PeerModel),
        new(MessagePackLz4, new MessagePackTranscoder(global::MessagePack.MessagePackCompression.Lz4BlockArray), ContenderInput.PeerModel),
        new(MemoryPack, new MemoryPackTranscoder(), ContenderInput.PeerModel),
        new(ProtobufNet, new ProtobufNetTranscoder()),
        Own(CacheSerializer),
        Own(CacheSerializerCompressed),
        Own(CacheSerializerLz4),
        Own(CacheSerializerZstandard),
        Own(CacheSerializerUncompressed),
        Own(CacheSerializerLz4High),
        Own(CacheSerializerZstandard3),
        Own(CacheSerializerDeflate),
        Own(CacheSerializerAliased),
    ];

    /// <summary>
    /// Returns the options of <see cref="CacheSerializerAliased"/>: compression off (so the type header's saving shows
    /// byte for byte against <see cref="CacheSerializerUncompressed"/>), plus aliases 1-5 for the workload root types.
    /// </summary>
    /// <returns>New options; the transcoder copies them when it is built.</returns>
    /// <remarks>
    /// Registered once, as an application would at start-up, for the root types it caches; aliases 1-63 take one byte
    /// (docs/format.md). Only root types: a [ProtoInclude] subtype travels inside its base's body, never in the header.
    /// </remarks>
    public static ProtobufTranscoderOptions AliasedOptions()
    {
        var options = new ProtobufTranscoderOptions { Compression = TranscoderCompression.None };
        options.TypeAliases.Add(typeof(RpcMessage), 1);
        options.TypeAliases.Add(typeof(EightUInt64s), 2);
        options.TypeAliases.Add(typeof(RecordSet), 3);
        options.TypeAliases.Add(typeof(FolderCatalog), 4);
        options.TypeAliases.Add(typeof(UserFolderTree), 5);
        return options;
    }

    /// <summary>
    /// Returns the contender of that name for items of up to <paramref name="maxValueSize"/> bytes: this package's
    /// configurations are built again with that <see cref="ProtobufTranscoderOptions.MaxValueSize"/> (nothing else
    /// differs); the other contenders have no limit of their own and are the catalog's.
    /// </summary>
    /// <param name="name">A name from <see cref="All"/>.</param>
    /// <param name="maxValueSize">The largest payload, in bytes (the load test's memcached <c>-I</c>).</param>
    /// <returns>The contender.</returns>
    /// <exception cref="ArgumentException">No contender has that name.</exception>
    public static Contender Get(string name, int maxValueSize)
    {
        Contender contender = Get(name);
        return OwnConfigurations.ContainsKey(contender.Name) ? Own(contender.Name, maxValueSize) : contender;
    }

    /// <summary>Returns the contender of that name.</summary>
    /// <param name="name">A name from <see cref="All"/>.</param>
    /// <returns>The contender.</returns>
    /// <exception cref="ArgumentException">No contender has that name.</exception>
    public static Contender Get(string name) =>
        All.FirstOrDefault(c => c.Name == name)
        ?? throw new ArgumentException($"No contender is named '{name}'; known: {string.Join(", ", All.Select(c => c.Name))}.", nameof(name));

    private static Contender Own(string name) => new(name, new ProtobufTranscoder(OwnConfigurations[name]()));

    private static Contender Own(string name, int maxValueSize)
    {
        ProtobufTranscoderOptions options = OwnConfigurations[name]();
        options.MaxValueSize = maxValueSize;
        return new(name, new ProtobufTranscoder(options));
    }
}
