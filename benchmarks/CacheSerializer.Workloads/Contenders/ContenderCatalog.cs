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

    /// <summary>The name of this package's transcoder with its defaults.</summary>
    public const string CacheSerializer = "CacheSerializer";

    /// <summary>The name of this package's transcoder with Brotli compression (items of 1 KiB and more, when smaller).</summary>
    public const string CacheSerializerCompressed = "CacheSerializer+Brotli";

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
        new(CacheSerializer, new ProtobufTranscoder()),
        new(CacheSerializerCompressed, new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.Brotli })),
    ];

    /// <summary>Returns the contender of that name.</summary>
    /// <param name="name">A name from <see cref="All"/>.</param>
    /// <returns>The contender.</returns>
    /// <exception cref="ArgumentException">No contender has that name.</exception>
    public static Contender Get(string name) =>
        All.FirstOrDefault(c => c.Name == name)
        ?? throw new ArgumentException($"No contender is named '{name}'; known: {string.Join(", ", All.Select(c => c.Name))}.", nameof(name));
}
