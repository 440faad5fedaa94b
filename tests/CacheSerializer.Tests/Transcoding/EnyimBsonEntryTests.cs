using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// Entries written exactly the way EnyimMemcachedCore's DefaultTranscoder writes objects (its SerializeObject: a
/// default JsonSerializer into a BsonDataWriter, flag 0x0101), read back by ProtobufTranscoder's default foreign-item reader.
/// </summary>
public class EnyimBsonEntryTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    private static CacheItem WrittenByDefaultTranscoder(object value, uint flags = 0x0101) =>
        new(flags, new ArraySegment<byte>(DefaultTranscoderReference.SerializeObject(value)));

    [Fact]
    public void DeserializeOfT_BsonObject_ReturnsObject()
    {
        CacheItem item = WrittenByDefaultTranscoder(new Customer { Name = "Zoë", Age = 41, Tags = ["a", "b"] });

        Customer back = _transcoder.Deserialize<Customer>(item)!;

        Assert.Equal("Zoë", back.Name);
        Assert.Equal(41, back.Age);
        Assert.Equal(["a", "b"], back.Tags);
    }

    [Fact]
    public void DeserializeOfList_BsonRootArray_ReturnsList()
    {
        CacheItem item = WrittenByDefaultTranscoder(new List<Customer> { new() { Name = "A" }, new() { Name = "B" } });

        List<Customer> back = _transcoder.Deserialize<List<Customer>>(item)!;

        Assert.Equal(["A", "B"], back.Select(c => c.Name));
    }

    [Fact]
    public void DeserializeOfArray_BsonRootArray_ReturnsArray()
    {
        CacheItem item = WrittenByDefaultTranscoder(new[] { 1, 2, 3 });

        Assert.Equal([1, 2, 3], _transcoder.Deserialize<int[]>(item)!);
    }

    [Fact]
    public void DeserializeOfDictionary_BsonDocument_ReturnsDictionary()
    {
        // DefaultTranscoder reads every IEnumerable root as an array and so cannot read its own dictionaries back.
        CacheItem item = WrittenByDefaultTranscoder(new Dictionary<string, int> { ["x"] = 1, ["y"] = 2 });

        Dictionary<string, int> back = _transcoder.Deserialize<Dictionary<string, int>>(item)!;

        Assert.Equal(2, back["y"]);
    }

    [Fact]
    public void Deserialize_BsonObject_ReturnsJObjectLikeDefaultTranscoder()
    {
        CacheItem item = WrittenByDefaultTranscoder(new Customer { Name = "N", Age = 3 });

        JObject back = Assert.IsType<JObject>(_transcoder.Deserialize(item));

        Assert.Equal("N", (string?)back["Name"]);
        Assert.Equal(3, (int)back["Age"]!);
    }

    [Fact]
    public void DeserializeOfT_LegacyDecimalFlag_IsReadAsBson()
    {
        CacheItem item = WrittenByDefaultTranscoder(new Customer { Name = "dec" }, flags: 0x010F);

        Assert.Equal("dec", _transcoder.Deserialize<Customer>(item)!.Name);
    }

    [Fact]
    public void Deserialize_TypeNameInBson_IsNotHonoured()
    {
        using var stream = new MemoryStream();
        using (var writer = new BsonDataWriter(stream))
        {
            new JsonSerializer { TypeNameHandling = TypeNameHandling.All }.Serialize(writer, new Customer { Name = "t" });
        }

        object? back = _transcoder.Deserialize(new CacheItem(0x0101, new ArraySegment<byte>(stream.ToArray())));

        Assert.IsType<JObject>(back);
    }

    [Fact]
    public void Deserialize_CorruptBson_ThrowsTranscoderException()
    {
        byte[] bytes = WrittenByDefaultTranscoder(new Customer { Name = "x" }).Bytes();

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<Customer>(TranscoderTestHelpers.Item(0x0101, bytes[..^4])));

        Assert.Equal(0x0101u, e.Flags);
    }

    [Fact]
    public void Deserialize_ForeignItemReaderNull_UnknownFlagThrows()
    {
        CacheItem item = WrittenByDefaultTranscoder(new Customer());
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ForeignItemReader = null });

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize(item));

        Assert.Equal(0x0101u, e.Flags);
        Assert.StartsWith("No codec reads flags 0x0101 and no foreign-item reader is set", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_UnknownFlag_DefaultInnerThrowsTranscoderException()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize(TranscoderTestHelpers.Item(0x7777, 1)));

        Assert.Equal(0x7777u, e.Flags);
    }

    [Fact]
    public void Deserialize_ReplacedForeignItemReader_GetsFlagsWeDoNotOwn()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ForeignItemReader = new AsciiTranscoder() });

        Assert.Equal("hi", transcoder.Deserialize(TranscoderTestHelpers.Item(AsciiTranscoder.Flag, "hi"u8.ToArray())));
        Assert.Equal("hi", transcoder.Deserialize<string>(TranscoderTestHelpers.Item(AsciiTranscoder.Flag, "hi"u8.ToArray())));
        Assert.Equal(5, transcoder.Deserialize<int>(transcoder.Serialize(5)));
    }

    [Fact]
    public void Deserialize_InnerThrowsForeignException_IsWrapped()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ForeignItemReader = new AsciiTranscoder() });

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize(TranscoderTestHelpers.Item(0x0101, 1)));

        Assert.IsType<InvalidOperationException>(e.InnerException);
    }

    public sealed class Customer
    {
        public string? Name { get; set; }

        public int Age { get; set; }

        public List<string> Tags { get; set; } = [];
    }

    /// <summary>A second, real transcoder format (ASCII text under its own flag), to show the inner slot is replaceable.</summary>
    private sealed class AsciiTranscoder : ITranscoder
    {
        public const uint Flag = 0x0A5C;

        public CacheItem Serialize(object? value) => new(Flag, new ArraySegment<byte>(System.Text.Encoding.ASCII.GetBytes((string)value!)));

        public object? Deserialize(CacheItem item) => item.Flags == Flag
            ? System.Text.Encoding.ASCII.GetString(item.Data)
            : throw new InvalidOperationException($"not ASCII: 0x{item.Flags:X4}");

        public T? Deserialize<T>(CacheItem item) => (T?)Deserialize(item);
    }
}
