using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

/// <summary>Every truncation and every single-bit flip of every test payload ends in a ProtoException or a valid value.</summary>
public class MalformedInputTests
{
    private static readonly ProtoModel s_model = new();

    public static TheoryData<string> PayloadNames => new(Payloads.Keys);

    private static Dictionary<string, (Type Type, byte[] Bytes)> Payloads { get; } = BuildPayloads();

    [Theory]
    [MemberData(nameof(PayloadNames))]
    public void Deserialize_EveryTruncation_ThrowsProtoExceptionOrReturnsValue(string name)
    {
        var (type, bytes) = Payloads[name];
        for (int length = 0; length < bytes.Length; length++)
        {
            AssertReadsOrThrowsOurs(type, bytes.AsMemory(0, length));
        }
    }

    [Theory]
    [MemberData(nameof(PayloadNames))]
    public void Deserialize_EveryBitFlip_ThrowsProtoExceptionOrReturnsValue(string name)
    {
        var (type, bytes) = Payloads[name];
        for (int bit = 0; bit < bytes.Length * 8; bit++)
        {
            var damaged = (byte[])bytes.Clone();
            damaged[bit / 8] ^= (byte)(1 << (bit % 8));
            AssertReadsOrThrowsOurs(type, damaged);
        }
    }

    [Theory]
    [InlineData(typeof(EverythingPoco))]
    [InlineData(typeof(ShapePoco))]
    [InlineData(typeof(NullEmptyPoco))]
    [InlineData(typeof(MapsPoco))]
    [InlineData(typeof(TreeNode))]
    public void Deserialize_RandomBytes_ThrowsProtoExceptionOrReturnsValue(Type type)
    {
        // Seeded, so a failure reproduces; bounded in count and size.
        var random = new Random(20261122);
        for (int i = 0; i < 2000; i++)
        {
            var bytes = new byte[random.Next(0, 64)];
            random.NextBytes(bytes);
            AssertReadsOrThrowsOurs(type, bytes);
        }
    }

    [Fact]
    public void Deserialize_LengthPrefixClaiming2GB_ThrowsWithoutAllocatingIt()
    {
        // Field 3 (a string) claiming 0x7FFFFFF0 bytes, followed by a few real ones.
        byte[] payload = [0x1A, 0xF0, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3];
        long before = GC.GetAllocatedBytesForCurrentThread();

        var ex = Assert.Throws<ProtoException>(() => s_model.Deserialize<RpcPoco>(payload));

        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 1_000_000, "a hostile length prefix allocated its claim");
        Assert.NotNull(ex.InnerException);
    }

    [Fact]
    public void Deserialize_PackedLengthClaiming2GB_ThrowsWithoutAllocatingIt()
    {
        byte[] varints = [0x0A, 0xF0, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3];
        byte[] doubles = [0x1A, 0xF0, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3, 4, 5, 6, 7, 8];
        long before = GC.GetAllocatedBytesForCurrentThread();

        Assert.Throws<ProtoException>(() => s_model.Deserialize<RepeatsPoco>(varints));
        Assert.Throws<ProtoException>(() => s_model.Deserialize<RepeatsPoco>(doubles));

        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 1_000_000, "a hostile packed length allocated its claim");
    }

    [Fact]
    public void Deserialize_DeeplyNestedHostilePayload_ThrowsProtoExceptionNotStackOverflow()
    {
        // 10,000 nested TreeNode.Child messages, each claiming the rest of the payload.
        const int levels = 10_000;
        var payload = new List<byte>();
        for (int i = 0; i < levels; i++)
        {
            payload.Insert(0, 0x12);
            payload.InsertRange(1, LengthVarint(payload.Count - 1));
        }

        Assert.Throws<ProtoException>(() => s_model.Deserialize<TreeNode>(payload.ToArray()));

        static byte[] LengthVarint(int value)
        {
            var bytes = new List<byte>();
            while (value >= 0x80)
            {
                bytes.Add((byte)(value | 0x80));
                value >>= 7;
            }

            bytes.Add((byte)value);
            return [.. bytes];
        }
    }

    [Theory]
    [InlineData(new byte[] { 0x0A, 0x05, 0x08, 0x01, 0x10, 0x09 })] // bcl TimeSpan with an unknown scale (9)
    [InlineData(new byte[] { 0x0A, 0x04, 0x08, 0x02, 0x10, 0x0F })] // bcl MINMAX scale with value 1 is fine; see below
    [InlineData(new byte[] { 0x0A, 0x03, 0x18, 0xBA, 0x01 })] // bcl decimal with scale 93
    public void Deserialize_HostileBclValues_ThrowOursOrRead(byte[] payload)
    {
        AssertReadsOrThrowsOurs(typeof(WireFormatTests.Holder<TimeSpan>), payload);
        AssertReadsOrThrowsOurs(typeof(WireFormatTests.Holder<decimal>), payload);
        AssertReadsOrThrowsOurs(typeof(WireFormatTests.Holder<DateTime>), payload);
    }

    [Fact]
    public void Deserialize_DecimalScaleOutOfRange_ThrowsProtoExceptionWithCause()
    {
        var ex = Assert.Throws<ProtoException>(() => s_model.Deserialize<WireFormatTests.Holder<decimal>>(new byte[] { 0x0A, 0x03, 0x18, 0xBA, 0x01 }));

        Assert.IsType<ArgumentOutOfRangeException>(ex.InnerException);
    }

    private static void AssertReadsOrThrowsOurs(Type type, ReadOnlyMemory<byte> data)
    {
        try
        {
            s_model.Deserialize(type, data);
        }
        catch (ProtoException ex)
        {
            // The cause may be any reader error, but never one that betrays a bug of ours.
            Assert.False(ex.InnerException is NullReferenceException or IndexOutOfRangeException or InvalidCastException, ex.ToString());
        }
    }

    private static Dictionary<string, (Type, byte[])> BuildPayloads()
    {
        var model = new ProtoModel();
        var payloads = new Dictionary<string, (Type, byte[])>
        {
            ["rpc"] = (typeof(RpcPoco), model.Serialize(new RpcPoco { Id = 1, Status = -2, Method = "m", Host = "h", Body = "body" })),
            ["eight"] = (typeof(EightPoco), model.Serialize(new EightPoco { A = 1, C = ulong.MaxValue, H = 1 << 20 })),
            ["records"] = (typeof(RecordSetPoco), model.Serialize(new RecordSetPoco { Version = 1, Count = 2, Entries = [new() { Id = 1, Name = "a" }, new() { Id = -1, Name = "" }] })),
            ["nested"] = (typeof(OuterPoco), model.Serialize(new OuterPoco { First = new() { Number = 1 }, Items = [new(), new() { Text = "t" }], Blob = [1], Ratio = 1 })),
            ["maps"] = (typeof(MapsPoco), model.Serialize(new MapsPoco { Counts = new() { ["a"] = 1 }, Names = new Dictionary<int, string> { [2] = "b" }, Inners = new() { ["c"] = new() } })),
            ["repeats"] = (typeof(RepeatsPoco), model.Serialize(new RepeatsPoco { PackedInts = [1, 300], UnpackedInts = [], PackedDoubles = [1], Words = ["w"], PackedLongs = [ulong.MaxValue] })),
            ["inheritance"] = (typeof(ShapePoco), model.Serialize<ShapePoco>(new RoundedSquarePoco { Id = 1, Label = "l", Side = 1, CornerRadius = 2 })),
            ["animals"] = (typeof(Animal), model.Serialize<Animal>(new Dog { Name = "d", Legs = 4, GoodBoy = true })),
            ["nullempty"] = (typeof(NullEmptyPoco), model.Serialize(new NullEmptyPoco { Ints = [], Words = ["x"], Text = "", Map = [], Set = [1], Blob = [], HighNumbered = [] })),
            ["everything"] = (typeof(EverythingPoco), model.Serialize(new EverythingPoco
            {
                Decimal = 1.5m, DateTime = DateTime.UtcNow, TimeSpan = TimeSpan.FromSeconds(3), Guid = Guid.NewGuid(), DateTimeOffset = DateTimeOffset.Now,
                DateOnly = new DateOnly(2000, 1, 1), TimeOnly = new TimeOnly(1, 2), Color = Color.Negative, NullableInt = 0, Tags = ["t"], Prices = new Dictionary<long, decimal> { [1] = 2 },
                Char = 'x', SByte = -1, Byte = 7,
            })),
            ["parseable"] = (typeof(ParseablePoco), model.Serialize(new ParseablePoco { Version = new Version(1, 2), Link = new Uri("http://x/"), Address = System.Net.IPAddress.Loopback })),
            ["tree"] = (typeof(TreeNode), model.Serialize(new TreeNode { Value = 1, Child = new() { Value = 2, Children = [new()] } })),
            ["rootlist"] = (typeof(List<string>), model.Serialize(new List<string> { "a", "" })),
        };
        return payloads;
    }
}
