using System.Runtime.Serialization.Formatters.Binary;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// An EnyimMemcachedCore section's <c>Transcoder</c> setting, resolved as its MemcachedClientConfiguration resolves it
/// (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs:
/// the exact short names BinaryFormatterTranscoder and MessagePackTranscoder become their full names, then
/// <c>Type.GetType</c> from its assembly; a name that finds nothing keeps <c>new DefaultTranscoder()</c>), and the
/// objects of DataContractTranscoder and BinaryFormatterTranscoder (src/Enyim.Caching/Memcached/Transcoders/).
/// </summary>
public class EnyimTranscoderSettingTests
{
    private const string Servers = """ "Servers": [ { "Address": "127.0.0.1", "Port": 11211 } ] """;

    public static TheoryData<object> Objects =>
    [
        new Order { Id = 7, Lines = ["a", "b"], At = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc) },
        new List<Order> { new() { Id = 1 }, new() { Id = 2, Lines = [] } },
        new Dictionary<string, int> { ["x"] = 1 },
        new[] { 1, 2, 3 },
    ];

    [Theory]
    [InlineData("", "Default")]
    [InlineData("DefaultTranscoder", "Default")]
    [InlineData("Enyim.Caching.Memcached.DefaultTranscoder", "Default")]
    [InlineData("DataContractTranscoder", "Default")]
    [InlineData("Enyim.Caching.Memcached.DataContractTranscoder", "Default")]
    [InlineData("MessagePackTranscoder", "MessagePack")]
    [InlineData("Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder", "MessagePack")]
    [InlineData("Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder, EnyimMemcachedCore, Version=3.4.0.0", "MessagePack")]
    [InlineData("BinaryFormatterTranscoder", "BinaryFormatter")]
    [InlineData("Enyim.Caching.Memcached.Transcoders.BinaryFormatterTranscoder", "BinaryFormatter")]
    [InlineData("messagepacktranscoder", "Default")]
    [InlineData("Enyim.Caching.Memcached.MessagePackTranscoder", "Default")]
    [InlineData("MessagePackTranscoder, EnyimMemcachedCore", "Default")]
    [InlineData("Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder, Enyim.Caching", "Default")]
    public void Bind_TranscoderName_ResolvesAsEnyimMemcachedCoresTypeGetType(string name, string expected)
    {
        MemcachedClientOptions options = Apply(name);

        Assert.Equal(expected, options.EnyimTranscoder.ToString());
        Assert.Empty(options.BindingProblems);
    }

    [Theory]
    [InlineData("messagepacktranscoder", "\"MessagePackTranscoder\" (or \"Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder\")")]
    [InlineData("Enyim.Caching.Memcached.BinaryFormatterTranscoder", "\"BinaryFormatterTranscoder\" (or \"Enyim.Caching.Memcached.Transcoders.BinaryFormatterTranscoder\")")]
    public void Bind_NameTypeGetTypeDoesNotFind_KeepsDefaultTranscoderAndWarnsWhatToWrite(string name, string write)
    {
        string warning = Assert.Single(Apply(name).BindingWarnings);

        Assert.StartsWith($"enyimMemcached:Transcoder: '{name}' is not a type EnyimMemcachedCore's Type.GetType finds, so it ignored it and kept its DefaultTranscoder", warning, StringComparison.Ordinal);
        Assert.Contains($"write {write} in every application's setting at once", warning, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("DataContractTranscoder")]
    [InlineData("DefaultTranscoder")]
    public void Bind_ShortNameOfBsonTranscoder_KeepsDefaultTranscoderWithoutWarning(string name) =>
        Assert.Empty(Apply(name).BindingWarnings);

    [Theory]
    [MemberData(nameof(Objects))]
    public void DataContractTranscoder_WritesDefaultTranscodersBytes(object value)
    {
        // Its SerializeObject differs from DefaultTranscoder's only in taking the array after the writer is disposed;
        // BSON is written whole when the root ends, so the bytes are the same, and its reads are DefaultTranscoder's (not overridden).
        Assert.Equal(DefaultTranscoderReference.SerializeObject(value), DataContractSerializeObject(value));
    }

    [Theory]
    [MemberData(nameof(Objects))]
    public void Serialize_DataContractTranscoderSection_WritesItsBytesInTheMigrationPhase(object value)
    {
        CacheItem item = Transcoder("""{ SERVERS, "Transcoder": "Enyim.Caching.Memcached.DataContractTranscoder" }""").Serialize(value);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(DataContractSerializeObject(value), item.Bytes());
    }

    [Fact]
    public void Serialize_BinaryFormatterTranscoderSection_WritesBinaryFormattersBytesUnder0x0101()
    {
        ITranscoder transcoder = Transcoder($$"""{ SERVERS, "Transcoder": "BinaryFormatterTranscoder", "ProtobufTranscoder": { "BinaryFormatterFallbackTypes": [ "{{typeof(Cart).AssemblyQualifiedName}}" ] } }""");
        var cart = new Cart { Owner = "Zoë", Total = 12 };

        CacheItem item = transcoder.Serialize(cart);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(BinaryFormatterTranscoderSerializeObject(cart), item.Bytes());
        Assert.Equal(("Zoë", 12), (transcoder.Deserialize<Cart>(item)!.Owner, transcoder.Deserialize<Cart>(item)!.Total));
    }

    [Fact]
    public void Serialize_BinaryFormatterTranscoderAfterTheFlip_WritesProtobufAndReadsOldStreams()
    {
        ITranscoder transcoder = Transcoder($$"""{ SERVERS, "Transcoder": "BinaryFormatterTranscoder", "ProtobufTranscoder": { "ObjectFormat": "Protobuf", "BinaryFormatterFallbackTypes": [ "{{typeof(Cart).AssemblyQualifiedName}}" ] } }""");
        var old = new CacheItem(0x0101, BinaryFormatterTranscoderSerializeObject(new Cart { Owner = "old", Total = 1 }));

        Assert.Equal(0xC541u, transcoder.Serialize(new Order { Id = 3 }).Flags);
        Assert.Equal("old", transcoder.Deserialize<Cart>(old)!.Owner);
    }

    [Fact]
    public void Deserialize_BinaryFormatterStreamNamingAnUnlistedType_IsRefusedBeforeCreatingIt()
    {
        ITranscoder transcoder = Transcoder($$"""{ SERVERS, "Transcoder": "BinaryFormatterTranscoder", "ProtobufTranscoder": { "BinaryFormatterFallbackTypes": [ "{{typeof(Cart).AssemblyQualifiedName}}" ] } }""");
        var item = new CacheItem(0x0101, BinaryFormatterTranscoderSerializeObject(new Other { Name = "x" }));

        TranscoderException thrown = Assert.Throws<TranscoderException>(() => transcoder.Deserialize<object>(item));

        Assert.Equal(TranscoderErrorKind.UnknownType, thrown.Kind);
        Assert.StartsWith($"The BinaryFormatter item under flags 0x0101 names '{typeof(Other).FullName}'", thrown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddMemcached_FallbackTypeNameThatLoadsNothing_FailsAtStartNamingIt()
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() =>
            Bind("""{ SERVERS, "Transcoder": "BinaryFormatterTranscoder", "ProtobufTranscoder": { "BinaryFormatterFallbackTypes": [ "MyApp.Missing, MyApp" ] } }"""));

        Assert.Contains(
            "enyimMemcached:ProtobufTranscoder:BinaryFormatterFallbackTypes:0: 'MyApp.Missing, MyApp' loads no type; write the type's assembly-qualified name (\"MyApp.Cart, MyApp\").",
            thrown.Failures);
    }

    /// <summary>DataContractTranscoder's SerializeObject: <c>new JsonSerializer()</c> into a <c>BsonDataWriter</c>, the array taken after the writer is disposed.</summary>
    private static byte[] DataContractSerializeObject(object value)
    {
        var stream = new MemoryStream();
        using (var writer = new BsonDataWriter(stream))
        {
            new JsonSerializer().Serialize(writer, value);
        }

        return stream.ToArray();
    }

    /// <summary>BinaryFormatterTranscoder's SerializeObject: <c>new BinaryFormatter().Serialize</c> into a MemoryStream.</summary>
    private static byte[] BinaryFormatterTranscoderSerializeObject(object value)
    {
        using var stream = new MemoryStream();
        new BinaryFormatter().Serialize(stream, value);
        return stream.ToArray();
    }

    private static MemcachedClientOptions Apply(string transcoderName)
    {
        var options = new MemcachedClientOptions();
        IConfiguration section = Section($$"""{ "Transcoder": {{JsonConvert.ToString(transcoderName)}} }""");
        EnyimSection.Apply(section, options);
        return options;
    }

    private static ITranscoder Transcoder(string sectionJson) => Bind(sectionJson).Transcoder!;

    private static MemcachedClientOptions Bind(string sectionJson)
    {
        using ServiceProvider provider = new ServiceCollection().AddMemcached(Section(sectionJson.Replace("SERVERS", Servers, StringComparison.Ordinal))).BuildServiceProvider();
        return provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;
    }

    private static IConfigurationSection Section(string json) =>
        new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "enyimMemcached": {{json}} }""")))
            .Build()
            .GetSection("enyimMemcached");

    [ProtoBuf.ProtoContract]
    public sealed class Order
    {
        [ProtoBuf.ProtoMember(1)]
        public int Id { get; set; }

        [ProtoBuf.ProtoMember(2)]
        public List<string> Lines { get; set; } = [];

        [ProtoBuf.ProtoMember(3)]
        public DateTime At { get; set; }
    }

    [Serializable]
    public sealed class Cart
    {
        public string? Owner { get; set; }

        public int Total { get; set; }
    }

    [Serializable]
    public sealed class Other
    {
        public string? Name { get; set; }
    }
}
