using CacheSerializer.Tests.Transcoding.Messages;
using Google.Protobuf;

namespace CacheSerializer.Tests.Transcoding;

public class MessageTests
{
    private const string PersonName = "cacheserializer.tests.transcoder.Person";

    private static Person SamplePerson() => new()
    {
        Name = "Ada",
        Id = 1815,
        Emails = { "ada@example.org", "countess@example.org" },
        Address = new Address { City = "London", Postcode = "W1" },
        Score = -0.5,
    };

    [Fact]
    public void Serialize_Message_WritesNameHeaderThenGeneratedEncoding()
    {
        Person person = SamplePerson();

        CacheItem item = new ProtobufTranscoder().Serialize(person);

        Assert.Equal(0xC540u, item.Flags);
        byte[] bytes = item.Bytes();
        Assert.Equal(PersonName.Length << 1, bytes[0]);
        Assert.Equal(PersonName, System.Text.Encoding.UTF8.GetString(bytes, 1, PersonName.Length));
        Assert.Equal(Fingerprint(typeof(Person)), bytes[(1 + PersonName.Length)..(5 + PersonName.Length)]);
        Assert.Equal(person.ToByteArray(), bytes[(5 + PersonName.Length)..]);
    }

    [Fact]
    public void Deserialize_Message_ReturnsEqualMessageThroughBothOverloads()
    {
        var transcoder = new ProtobufTranscoder();
        CacheItem item = transcoder.Serialize(SamplePerson());

        Assert.Equal(SamplePerson(), transcoder.Deserialize(item));
        Assert.Equal(SamplePerson(), transcoder.Deserialize<Person>(item));
        Assert.Equal(SamplePerson(), transcoder.Deserialize<IMessage>(item));
    }

    [Fact]
    public void Deserialize_FreshReaderWithoutKnownTypes_RefusesNonGenericButReadsAsT()
    {
        CacheItem item = new ProtobufTranscoder().Serialize(SamplePerson());
        var reader = new ProtobufTranscoder();

        TranscoderException e = Assert.Throws<TranscoderException>(() => reader.Deserialize(item));
        Assert.Contains($"'{PersonName}'", e.Message, StringComparison.Ordinal);
        Assert.Equal(0xC540u, e.Flags);

        Assert.Equal(SamplePerson(), reader.Deserialize<Person>(item));
        Assert.Equal(SamplePerson(), reader.Deserialize(item));
    }

    [Fact]
    public void Deserialize_KnownTypeRegistered_ResolvesFromFirstRead()
    {
        CacheItem item = new ProtobufTranscoder().Serialize(SamplePerson());
        var options = new ProtobufTranscoderOptions();
        options.KnownTypes.Add(typeof(Person));

        Assert.Equal(SamplePerson(), new ProtobufTranscoder(options).Deserialize(item));
    }

    [Fact]
    public void Serialize_AliasedMessage_WritesOneByteHeader()
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(Person)] = 5;
        var transcoder = new ProtobufTranscoder(options);

        CacheItem item = transcoder.Serialize(SamplePerson());

        Assert.Equal(0xC540u, item.Flags);
        Assert.Equal((5 << 1) | 1, item.Bytes()[0]);
        Assert.Equal(Fingerprint(typeof(Person)), item.Bytes()[1..5]);
        Assert.Equal(SamplePerson().ToByteArray(), item.Bytes()[5..]);
        Assert.Equal(SamplePerson(), new ProtobufTranscoder(options).Deserialize(item));
    }

    [Fact]
    public void Deserialize_AliasedType_StillReadsItemsWrittenUnderItsName()
    {
        CacheItem byName = new ProtobufTranscoder().Serialize(SamplePerson());
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(Person)] = 300;

        Assert.Equal(SamplePerson(), new ProtobufTranscoder(options).Deserialize(byName));
    }

    [Fact]
    public void Serialize_AliasAbove63_TakesTwoHeaderBytes()
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(Address)] = 300;

        byte[] bytes = new ProtobufTranscoder(options).Serialize(new Address { City = "Oslo" }).Bytes();

        // varint((300 << 1) | 1) = varint(601) = 0xD9 0x04
        Assert.Equal(new byte[] { 0xD9, 0x04 }, bytes[..2]);
    }

    [Fact]
    public void Deserialize_UnknownAlias_IsRefused()
    {
        CacheItem item = TranscoderTestHelpers.Item(0xC540, 0x0F, 0x01, 0x02, 0x03, 0x04, 0x0A, 0x01, 0x41);

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(item));

        Assert.Equal("The item under flags 0xC540 names type alias 7, which is not in ProtobufTranscoderOptions.TypeAliases.", e.Message);
    }

    [Fact]
    public void DeserializeOfT_MessageOfAnotherType_ThrowsWrongTypeBeforeParsing()
    {
        var transcoder = new ProtobufTranscoder();
        CacheItem item = transcoder.Serialize(SamplePerson());

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize<Address>(item));

        Assert.Equal(typeof(Address), e.DataType);
        Assert.Contains("holds a CacheSerializer.Tests.Transcoding.Messages.Person", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_TruncatedMessageBody_ThrowsTranscoderException()
    {
        var transcoder = new ProtobufTranscoder();
        byte[] bytes = transcoder.Serialize(SamplePerson()).Bytes();

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize(TranscoderTestHelpers.Item(0xC540, bytes[..^3])));

        Assert.IsType<InvalidProtocolBufferException>(e.InnerException);
    }

    [Fact]
    public void Deserialize_MessageNameUnderEngineFlag_IsRefused()
    {
        var transcoder = new ProtobufTranscoder();
        byte[] bytes = transcoder.Serialize(SamplePerson()).Bytes();

        Assert.Throws<TranscoderException>(() => transcoder.Deserialize(TranscoderTestHelpers.Item(0xC541, bytes)));
    }

    [Fact]
    public void Constructor_AliasForNativeType_IsRejectedNamingTypeAliases()
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(int)] = 1;

        ArgumentException e = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(options));

        Assert.StartsWith("ProtobufTranscoderOptions.TypeAliases contains System.Int32", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Constructor_DuplicateAlias_IsRejected()
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(Person)] = 1;
        options.TypeAliases[typeof(Address)] = 1;

        ArgumentException e = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(options));

        Assert.StartsWith("ProtobufTranscoderOptions.TypeAliases gives alias 1 to both", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(65536)]
    public void Constructor_AliasOutOfRange_IsRejected(int alias)
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases[typeof(Person)] = alias;

        ArgumentException e = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(options));

        Assert.StartsWith("ProtobufTranscoderOptions.TypeAliases gives", e.Message, StringComparison.Ordinal);
    }

    private static byte[] Fingerprint(Type type)
    {
        byte[] bytes = new byte[4];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes, new ProtobufTranscoder().DescribeContract(type).Fingerprint);
        return bytes;
    }
}
