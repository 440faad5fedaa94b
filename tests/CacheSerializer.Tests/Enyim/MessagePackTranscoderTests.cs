using CacheSerializer.Enyim.Internal;
using CacheSerializer.Tests.Transcoding;
using MessagePack;
using MessagePack.Resolvers;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Enyim;

/// <summary>
/// EnyimMemcachedCore's MessagePackTranscoder, named in the section (<c>"Transcoder": "MessagePackTranscoder"</c>, as its
/// README configures it): its objects read, and written in the migration phase, byte for byte as it writes them. The
/// reference is the MessagePack library itself, called as MessagePackTranscoder calls it (cnblogs/EnyimMemcachedCore at
/// e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Memcached/Transcoders/MessagePackTranscoder.cs:
/// <c>MessagePackSerializer.Serialize(value, options)</c> with value typed object, the options
/// <c>MessagePackSerializerOptions.Standard</c> with the resolver chain below); its primitives are DefaultTranscoder's
/// (the base class's Serialize, DefaultTranscoder.cs), and everything else, decimal included, goes to SerializeObject.
/// </summary>
public class MessagePackTranscoderTests
{
    private const string Servers = """ "Servers": [ { "Address": "127.0.0.1", "Port": 11211 } ] """;

    /// <summary>MessagePackTranscoder's CreateDefaultOptions, written out from its source.</summary>
    private static readonly MessagePackSerializerOptions EnyimOptions = MessagePackSerializerOptions.Standard.WithResolver(CompositeResolver.Create(
        NativeDateTimeResolver.Instance,
        NativeGuidResolver.Instance,
        NativeDecimalResolver.Instance,
        ContractlessStandardResolverAllowPrivate.Instance,
        ContractlessStandardResolver.Instance));

    private readonly ITranscoder _migration = EnyimSections.Transcoder($$"""{ {{Servers}}, "Transcoder": "MessagePackTranscoder" }""");

    private readonly ITranscoder _flipped = EnyimSections.Transcoder($$"""{ {{Servers}}, "Transcoder": "MessagePackTranscoder", "ProtobufTranscoder": { "ObjectFormat": "Protobuf" } }""");

    public static TheoryData<object> Objects =>
    [
        new Basket { Owner = "Zoë", Lines = [new Line { Sku = "a-1", Quantity = 2, Price = 9.95m }], Created = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc), Id = Guid.Parse("6f9619ff-8b86-d011-b42d-00cf4fc964ff") },
        new List<Line> { new() { Sku = "x", Quantity = 1 }, new() { Sku = "y", Quantity = -3, Price = -0.5m } },
        new Dictionary<string, int> { ["x"] = 1, ["y"] = 2 },
        new[] { 1, 2, 3 },
        12.5m,
        Guid.Parse("6f9619ff-8b86-d011-b42d-00cf4fc964ff"),
        TimeSpan.FromMinutes(3),
        new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(2)),
        new Basket(),
    ];

    public static TheoryData<object, uint> Primitives => new()
    {
        { 42, 0x0109u },
        { "héllo", 0x0112u },
        { 3.5d, 0x010Eu },
        { true, 0x0103u },
        { new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc), 0x0110u },
        { new byte[] { 1, 2, 3 }, 0xFA52u },
        { DayOfWeek.Friday, 0x0109u },
    };

    [Theory]
    [MemberData(nameof(Objects))]
    public void Serialize_ObjectInMigrationPhase_WritesTheMessagePackLibrarysBytesUnder0x0101(object value)
    {
        CacheItem item = _migration.Serialize(value);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(MessagePackSerializer.Serialize<object>(value, EnyimOptions), item.Bytes());
    }

    [Theory]
    [MemberData(nameof(Primitives))]
    public void Serialize_PrimitiveInMigrationPhase_WritesDefaultTranscodersFlagsAndBytes(object value, uint flags)
    {
        ITranscoder defaultTranscoder = EnyimSections.Transcoder($$"""{ {{Servers}} }""");

        CacheItem item = _migration.Serialize(value);

        Assert.Equal(flags, item.Flags);
        Assert.Equal(defaultTranscoder.Serialize(value).Bytes(), item.Bytes());
    }

    [Fact]
    public void Deserialize_ObjectTheOldApplicationWrote_ReadsIntoTheTypeAsked()
    {
        var written = new Basket { Owner = "A", Lines = [new Line { Sku = "s", Quantity = 7, Price = 1.25m }], Created = new DateTime(2020, 1, 2, 3, 4, 5, DateTimeKind.Local) };
        var item = new CacheItem(0x0101, MessagePackSerializer.Serialize<object>(written, EnyimOptions));

        Basket? read = _migration.Deserialize<Basket>(item);

        Assert.Equal((written.Owner, written.Created, written.Created.Kind), (read!.Owner, read.Created, read.Created.Kind));
        Assert.Equal(("s", 7, 1.25m), (read.Lines[0].Sku, read.Lines[0].Quantity, read.Lines[0].Price));
    }

    [Fact]
    public void Deserialize_DecimalTheOldApplicationWrote_ReadsTheDecimal()
    {
        // MessagePackTranscoder itself cannot read it back as a decimal (its Deserialize<decimal> goes to DeserializeObject,
        // which throws NotSupportedException); this reader does.
        var item = new CacheItem(0x0101, MessagePackSerializer.Serialize<object>(-79228162514264337593543950335m, EnyimOptions));

        Assert.Equal(-79228162514264337593543950335m, _flipped.Deserialize<decimal>(item));
    }

    [Fact]
    public void Deserialize_UntypedRead_ReturnsWhatTheLibraryReadsAsObject()
    {
        byte[] bytes = MessagePackSerializer.Serialize<object>(new Line { Sku = "k", Quantity = 3 }, EnyimOptions);

        Dictionary<object, object> read = Assert.IsType<Dictionary<object, object>>(_migration.Deserialize(new CacheItem(0x0101, bytes)));
        Dictionary<object, object> expected = Assert.IsType<Dictionary<object, object>>(MessagePackSerializer.Deserialize<object>(bytes, EnyimOptions));

        Assert.Equal(expected.OrderBy(static p => (string)p.Key), read.OrderBy(static p => (string)p.Key));
    }

    [Fact]
    public void Serialize_MigrationPhaseObject_ReadsBackInTheOldApplicationsCall()
    {
        var value = new Basket { Owner = "B", Lines = [new Line { Sku = "q", Quantity = 1, Price = 2m }] };

        // MessagePackTranscoder's Deserialize<T> of an object: MessagePackSerializer.Deserialize<T>(item.Data, options).
        Basket read = MessagePackSerializer.Deserialize<Basket>(_migration.Serialize(value).Data, EnyimOptions);

        Assert.Equal(("B", "q", 2m), (read.Owner, read.Lines[0].Sku, read.Lines[0].Price));
    }

    [Fact]
    public void Serialize_AfterTheFlip_WritesProtobufAndStillReadsOldMessagePackItems()
    {
        var old = new CacheItem(0x0101, MessagePackSerializer.Serialize<object>(new Line { Sku = "old", Quantity = 5 }, EnyimOptions));

        CacheItem written = _flipped.Serialize(new Line { Sku = "new", Quantity = 6 });

        Assert.Equal(0xC541u, written.Flags);
        Assert.Equal(("old", 5), (_flipped.Deserialize<Line>(old)!.Sku, _flipped.Deserialize<Line>(old)!.Quantity));
        Assert.Equal(("new", 6), (_flipped.Deserialize<Line>(written)!.Sku, _flipped.Deserialize<Line>(written)!.Quantity));
    }

    [Fact]
    public void Serialize_TypeNoFormatterOfTheChainWrites_IsRefusedNamingTheFlip()
    {
        // MessagePack's resolvers cannot build a formatter for IntPtr (its Serialize throws, so no old application cached one).
        TranscoderException thrown = Assert.Throws<TranscoderException>(() => _migration.Serialize(IntPtr.Zero));

        Assert.Equal(TranscoderErrorKind.Unstorable, thrown.Kind);
        Assert.Contains("no formatter of its resolver chain", thrown.Message, StringComparison.Ordinal);
        Assert.Contains("ProtobufTranscoder:ObjectFormat to Protobuf", thrown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_MessagePackTranscoderWithoutTheCompatibilityPackage_IsRefusedNamingIt()
    {
        Microsoft.Extensions.Configuration.IConfiguration configuration = EnyimSections.Configuration($$"""{ {{Servers}}, "Transcoder": "MessagePackTranscoder" }""");

        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() =>
            EnyimSections.Options(services => services.AddMemcached(configuration.GetSection("enyimMemcached"))));

        Assert.Equal(
            "enyimMemcached:Transcoder: MessagePackTranscoder's objects are MessagePack, which the core package does not read or write. Add the compatibility "
            + "package, CacheSerializer.Enyim, and register the client with services.AddEnyimMemcached(...) (the same section) in place of "
            + "services.AddMemcached(...) (docs/migrating-from-enyim.md, \"Transcoders\")",
            Assert.Single(thrown.Failures));
    }

    [Fact]
    public void Codec_IsTheCompatibilityPackagesMessagePackObjects()
    {
        Assert.Same(MessagePackObjects.Instance, EnyimSections.FromSection($$"""{ {{Servers}}, "Transcoder": "MessagePackTranscoder" }""").MessagePackObjects);
    }

    public sealed class Basket
    {
        public string? Owner { get; set; }

        public List<Line> Lines { get; set; } = [];

        public DateTime Created { get; set; }

        public Guid Id { get; set; }
    }

    /// <summary>A protobuf contract too (MessagePack's contractless resolvers ignore the attributes), so it is written after the flip.</summary>
    [ProtoBuf.ProtoContract]
    public sealed class Line
    {
        [ProtoBuf.ProtoMember(1)]
        public string? Sku { get; set; }

        [ProtoBuf.ProtoMember(2)]
        public int Quantity { get; set; }

        [ProtoBuf.ProtoMember(3)]
        public decimal Price { get; set; }
    }
}
