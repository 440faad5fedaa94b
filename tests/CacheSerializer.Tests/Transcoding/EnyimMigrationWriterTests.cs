using System.Numerics;
using Newtonsoft.Json;
using ProtoBuf;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The migration phase (<see cref="TranscoderObjectFormat.EnyimBson"/>): every value written exactly as EnyimMemcachedCore's
/// DefaultTranscoder writes it, so its applications still sharing the cache read it. The reference is DefaultTranscoder
/// itself, cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs: <c>SerializeObject</c> runs <c>new JsonSerializer()</c>
/// into a <c>BsonDataWriter</c> under flag 0x0101, and <c>Deserialize&lt;T&gt;</c> reads with <c>new JsonSerializer()</c>
/// from a <c>BsonDataReader</c> whose root is an array for every IEnumerable T. Both are rebuilt here from the same
/// Newtonsoft calls, as the old application runs them.
/// </summary>
public class EnyimMigrationWriterTests
{
    private readonly ProtobufTranscoder _migration = new(new ProtobufTranscoderOptions { ObjectFormat = TranscoderObjectFormat.EnyimBson });

    public static TheoryData<object> Objects =>
    [
        new Customer { Name = "Zoë", Age = 41, Tags = ["a", "b"], Since = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc) },
        new List<Customer> { new() { Name = "A" }, new() { Name = "B", Tags = [] } },
        new[] { 1, 2, 3 },
        new Dictionary<string, int> { ["x"] = 1, ["y"] = 2 },
        new Customer(),
    ];

    public static TheoryData<object> NoDefaultTranscoderFormat =>
    [
        12.5m,
        Guid.Parse("6f9619ff-8b86-d011-b42d-00cf4fc964ff"),
        TimeSpan.FromMinutes(3),
        new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(2)),
        new DateOnly(2024, 1, 2),
        new TimeOnly(3, 4, 5),
        new Uri("https://example.com/a"),
        new BigInteger(12345),
        (Half)1.5,
        (Int128)12345,
        (UInt128)12345,
    ];

    [Theory]
    [MemberData(nameof(Objects))]
    public void Serialize_ObjectInMigrationPhase_WritesDefaultTranscoderFlagsAndBytes(object value)
    {
        CacheItem item = _migration.Serialize(value);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(DefaultTranscoderReference.SerializeObject(value), item.Bytes());
    }

    [Fact]
    public void Serialize_LargeObjectInMigrationPhase_IsNeverCompressed()
    {
        var value = new Customer { Name = new string('x', 64 * 1024) };

        CacheItem item = _migration.Serialize(value);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(DefaultTranscoderReference.SerializeObject(value), item.Bytes());
    }

    [Theory]
    [MemberData(nameof(DefaultTranscoderCompatibilityTests.Vectors), MemberType = typeof(DefaultTranscoderCompatibilityTests))]
    public void Serialize_SharedNativeInMigrationPhase_WritesDefaultTranscoderFlagsAndBytes(object value, uint flags, string hex)
    {
        CacheItem item = _migration.Serialize(value);

        Assert.Equal(flags, item.Flags);
        Assert.Equal(hex, Convert.ToHexStringLower(item.Bytes()));
    }

    [Fact]
    public void Serialize_EnumInMigrationPhase_WritesItsUnderlyingTypeAsDefaultTranscoderDoes()
    {
        // DefaultTranscoder switches on Type.GetTypeCode, which is an enum's underlying type's code.
        CacheItem item = _migration.Serialize(DayOfWeek.Friday);

        Assert.Equal(0x0100u | (uint)Type.GetTypeCode(typeof(DayOfWeek)), item.Flags);
        Assert.Equal("05000000", Convert.ToHexStringLower(item.Bytes()));
    }

    [Fact]
    public void Serialize_NullInMigrationPhase_WritesDbNullMarker()
    {
        CacheItem item = _migration.Serialize(null);

        Assert.Equal(0x0102u, item.Flags);
        Assert.Empty(item.Bytes());
    }

    [Theory]
    [MemberData(nameof(NoDefaultTranscoderFormat))]
    public void Serialize_ValueDefaultTranscoderCannotWrite_ThrowsUnstorableLikeIt(object value)
    {
        // The reference throws too: BSON's root must be a document or an array.
        Assert.ThrowsAny<JsonException>(() => DefaultTranscoderReference.SerializeObject(value));

        TranscoderException thrown = Assert.Throws<TranscoderException>(() => _migration.Serialize(value));

        Assert.Equal(TranscoderErrorKind.Unstorable, thrown.Kind);
        Assert.Equal(value.GetType(), thrown.DataType);
        Assert.Contains("ObjectFormat", thrown.Message, StringComparison.Ordinal);
        Assert.Contains("docs/migrating-from-enyim.md", thrown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_SelfReferencingObject_ThrowsTranscoderException()
    {
        var node = new Node();
        node.Next = node;

        TranscoderException thrown = Assert.Throws<TranscoderException>(() => _migration.Serialize(node));

        Assert.IsType<JsonSerializationException>(thrown.InnerException);
    }

    [Fact]
    public void Deserialize_OwnMigrationItemWithoutForeignItemReader_ReturnsEqualObject()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ObjectFormat = TranscoderObjectFormat.EnyimBson, ForeignItemReader = null });
        var value = new Customer { Name = "N", Age = 3, Tags = ["t"], Since = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc) };

        Customer back = transcoder.Deserialize<Customer>(transcoder.Serialize(value))!;

        Assert.Equal(value, back);
    }

    [Theory]
    [MemberData(nameof(Objects))]
    public void DefaultTranscoderDeserialize_MigrationItem_ReadsWhatItsOwnWriteReads(object value)
    {
        // What an old application reads from our item is exactly what it reads from its own.
        CacheItem item = _migration.Serialize(value);

        (string Read, string? Failure) ours = ReadAsOldApplication(item.Bytes(), value.GetType());
        (string Read, string? Failure) own = ReadAsOldApplication(DefaultTranscoderReference.SerializeObject(value), value.GetType());

        Assert.Equal(own, ours);
        if (value is System.Collections.IDictionary)
        {
            // DefaultTranscoder reads every IEnumerable root as an array, so it cannot read its own dictionaries either:
            // from our item it gets the same failure, with the same message.
            Assert.StartsWith(nameof(JsonSerializationException), ours.Failure, StringComparison.Ordinal);
        }
        else
        {
            // Read, and as its own write reads (not always the value written: its BSON reader turns dates into local time).
            Assert.Null(ours.Failure);
        }
    }

    /// <summary>What an old application's DefaultTranscoder reads from <paramref name="data"/>, as JSON, or how it fails
    /// (the exception's type and message).</summary>
    private static (string Read, string? Failure) ReadAsOldApplication(byte[] data, Type type)
    {
        try
        {
            object? read = DefaultTranscoderReference.Deserialize(data, type);
            Assert.IsType(type, read);
            return (JsonConvert.SerializeObject(read), null);
        }
        catch (JsonException ex)
        {
            return ("", $"{ex.GetType().Name}: {ex.Message}");
        }
    }

    [Fact]
    public void Deserialize_ProtobufItemInMigrationPhase_ReadsIt()
    {
        // A server that already flipped to protobuf writes; one still in the migration phase reads.
        var flipped = new ProtobufTranscoder();
        var value = new Customer { Name = "P", Age = 9, Tags = ["x"], Since = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc) };
        CacheItem item = flipped.Serialize(value);

        Assert.Equal(0xC541u, item.Flags & ~0x80u);
        Assert.Equal(value, _migration.Deserialize<Customer>(item));
    }

    [Fact]
    public void Deserialize_MigrationItemAfterFlip_ReadsIt()
    {
        var flipped = new ProtobufTranscoder();
        var value = new Customer { Name = "B", Age = 2, Tags = [], Since = new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc) };

        Assert.Equal(value, flipped.Deserialize<Customer>(_migration.Serialize(value)));
    }

    [Fact]
    public void DescribeContract_InMigrationPhase_DescribesTheProtobufContractWrittenAfterTheFlip()
    {
        CacheContract migration = _migration.DescribeContract(typeof(Customer));
        CacheContract flipped = new ProtobufTranscoder().DescribeContract(typeof(Customer));

        Assert.Equal(flipped.Fingerprint, migration.Fingerprint);
    }

    [Fact]
    public void Options_UndefinedObjectFormat_Throws()
    {
        ArgumentException thrown = Assert.Throws<ArgumentException>(() => new ProtobufTranscoder(new ProtobufTranscoderOptions { ObjectFormat = (TranscoderObjectFormat)7 }));

        Assert.Contains("ObjectFormat", thrown.Message, StringComparison.Ordinal);
    }

    [ProtoContract]
    public sealed record Customer
    {
        [ProtoMember(1)]
        public string? Name { get; set; }

        [ProtoMember(2)]
        public int Age { get; set; }

        [ProtoMember(3)]
        public List<string>? Tags { get; set; }

        [ProtoMember(4)]
        public DateTime Since { get; set; }

        public bool Equals(Customer? other) =>
            other is not null && Name == other.Name && Age == other.Age && Since == other.Since
            && (Tags is null ? other.Tags is null : other.Tags is not null && Tags.SequenceEqual(other.Tags));

        public override int GetHashCode() => HashCode.Combine(Name, Age);
    }

    public sealed class Node
    {
        public Node? Next { get; set; }
    }
}
