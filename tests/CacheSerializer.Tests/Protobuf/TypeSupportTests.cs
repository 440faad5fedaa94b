using System.Net;
using CacheSerializer.Protobuf;
using CacheSerializer.Tests.Protobuf.ProtobufNetModel;

namespace CacheSerializer.Tests.Protobuf;

public class TypeSupportTests
{
    private readonly ProtoModel _model = new();

    [Fact]
    public void RoundTrip_EveryScalarAndCollectionShape_ComesBackEqual()
    {
        var value = new EverythingPoco
        {
            Bool = true,
            Byte = 255,
            SByte = -128,
            Short = short.MinValue,
            UShort = ushort.MaxValue,
            Int = int.MinValue,
            UInt = uint.MaxValue,
            Long = long.MinValue,
            ULong = ulong.MaxValue,
            Float = float.NaN,
            Double = double.NegativeInfinity,
            Char = 'é',
            Decimal = -79228162514264337593543950335m,
            DateTime = new DateTime(2024, 2, 29, 13, 14, 15, 16, DateTimeKind.Local).AddTicks(7),
            TimeSpan = TimeSpan.FromTicks(-123456789),
            Guid = Guid.NewGuid(),
            DateTimeOffset = new DateTimeOffset(2020, 5, 6, 7, 8, 9, TimeSpan.FromMinutes(330)),
            DateOnly = new DateOnly(1999, 12, 31),
            TimeOnly = new TimeOnly(23, 59, 59, 999),
            Color = Color.Negative,
            Flags = ByteFlags.High,
            NullableInt = 0,
            NullableDate = DateTime.MinValue,
            Point = new PointStruct { X = -1, Y = 2 },
            MaybePoint = new PointStruct { X = 3 },
            Tags = ["a", "b"],
            ReadOnlyLongs = [1, 2, 3],
            Guids = [Guid.Empty, Guid.NewGuid()],
            Colors = [Color.Red, Color.None],
            Prices = new Dictionary<long, decimal> { [1] = 9.99m, [2] = 0m },
            Blob = [0, 255],
        };

        var back = _model.Deserialize<EverythingPoco>(_model.Serialize(value));

        Assert.Equivalent(value, back, strict: true);
        Assert.Equal(value.DateTime.Kind, back.DateTime.Kind);
        Assert.Equal(value.DateTimeOffset.Offset, back.DateTimeOffset.Offset);
        Assert.IsType<HashSet<string>>(back.Tags);
    }

    [Fact]
    public void RoundTrip_PrivateFieldInitOnlyAndPrivateSetter_SkipConstructor()
    {
        var value = new EncapsulatedPoco(42, "name");
        value.Increment();

        var back = _model.Deserialize<EncapsulatedPoco>(_model.Serialize(value));

        Assert.Equal((42, "name", 1), (back.Secret, back.Name, back.Counter));
    }

    [Fact]
    public void RoundTrip_GetOnlyCollections_FilledInPlace()
    {
        var value = new GetOnlyCollectionsPoco();
        value.Items.Add("x");
        value.Lookup[1] = "one";

        var back = _model.Deserialize<GetOnlyCollectionsPoco>(_model.Serialize(value));

        Assert.Equal(["x"], back.Items);
        Assert.Equal(new Dictionary<int, string> { [1] = "one" }, back.Lookup);
        Assert.NotEqual(value.ConstructorRuns, back.ConstructorRuns);
    }

    [Fact]
    public void RoundTrip_DataContractWithOrder_SerializesOnlyDataMembers()
    {
        var bytes = _model.Serialize(new DataContractPoco { Number = 1, Text = "t", NotSerialized = "x" });

        Assert.Equal(new byte[] { 0x08, 0x01, 0x12, 0x01, 0x74 }, bytes);
        var back = _model.Deserialize<DataContractPoco>(bytes);
        Assert.Equal((1, "t", (string?)null), (back.Number, back.Text, back.NotSerialized));
    }

    [Fact]
    public void RoundTrip_ProtobufNetNamedAttributes_Honoured()
    {
        var value = new PnDerived { Id = 3, Values = [1, 2], Ignored = "dropped", Extra = "x" };

        var bytes = _model.Serialize<PnBase>(value);
        var back = Assert.IsType<PnDerived>(_model.Deserialize<PnBase>(bytes));

        // Include 10 { 1: "x" } first, then Id, then Values packed (IsPacked honoured).
        Assert.Equal(new byte[] { 0x52, 0x03, 0x0A, 0x01, 0x78, 0x08, 0x03, 0x12, 0x02, 0x01, 0x02 }, bytes);
        Assert.Equal((3, "x", (string?)null), (back.Id, back.Extra, back.Ignored));
        Assert.Equal([1, 2], back.Values!);
        Assert.False(back.ConstructorRan);
    }

    [Fact]
    public void RoundTrip_VersionUriAndIPAddress_AsStrings()
    {
        var value = new ParseablePoco { Version = new Version(1, 2, 3, 4), Link = new Uri("/relative?q=1", UriKind.Relative), Address = IPAddress.Parse("::1") };

        var bytes = _model.Serialize(value);
        var back = _model.Deserialize<ParseablePoco>(bytes);

        Assert.Equal(value.Version, back.Version);
        Assert.Equal(value.Link, back.Link);
        Assert.Equal(value.Address, back.Address);
        Assert.Equal(new byte[] { 0x0A, 0x07 }.Concat("1.2.3.4"u8.ToArray()), bytes.Take(9));
    }

    [Fact]
    public void Serialize_ParseableTypesOff_VersionMemberRejected()
    {
        var model = new ProtoModel { AllowParseableTypes = false };

        var ex = Assert.Throws<ProtoException>(() => model.Serialize(new VersionOnlyPoco { Version = new Version(1, 0) }));

        Assert.Contains("VersionOnlyPoco.Version", ex.Message, StringComparison.Ordinal);
        Assert.True(model.CanSerialize(typeof(ParseablePoco)) is false);
    }

    [Fact]
    public void Serialize_CollectionSubclassWithMembers_ThrowsNamingTypeAndMembers()
    {
        var holder = new HoldsOrderList { Orders = new OrderList { new InnerPoco() } };
        holder.Orders.Owner = "me";

        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(holder));
        var root = Assert.Throws<ProtoException>(() => _model.Serialize(holder.Orders));

        foreach (var message in new[] { ex.Message, root.Message })
        {
            Assert.Contains("CacheSerializer.Tests.Protobuf.OrderList is a collection that adds members of its own (Owner, Revision)", message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void RoundTrip_CollectionSubclassWithoutMembers_IsAList()
    {
        var back = _model.Deserialize<HoldsPlainList>(_model.Serialize(new HoldsPlainList { Numbers = [1, 2] }));

        Assert.IsType<PlainList>(back.Numbers);
        Assert.Equal([1, 2], back.Numbers!);
    }

    [Fact]
    public void RoundTrip_RecursiveType_ComesBackEqual()
    {
        var tree = new TreeNode { Value = 1, Child = new TreeNode { Value = 2 }, Children = [new TreeNode { Value = 3, Children = [] }] };

        var back = _model.Deserialize<TreeNode>(_model.Serialize(tree));

        Assert.Equivalent(tree, back, strict: true);
    }

    [Fact]
    public void Serialize_Cycle_ThrowsNamingTypeAndLimit()
    {
        var node = new TreeNode { Value = 1 };
        node.Child = node;

        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(node));

        Assert.Contains($"deeper than {ProtoModel.MaxDepth} nested messages at type CacheSerializer.Tests.Protobuf.TreeNode, or it contains a cycle", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_DepthAtLimit_RoundTrips_AndOneMoreThrows()
    {
        // The root plus MaxDepth nested messages below it.
        Assert.Equal(ProtoModel.MaxDepth + 1, Depth(_model.Deserialize<TreeNode>(_model.Serialize(Chain(ProtoModel.MaxDepth + 1)))));
        Assert.Throws<ProtoException>(() => _model.Serialize(Chain(ProtoModel.MaxDepth + 2)));

        static TreeNode Chain(int levels)
        {
            var root = new TreeNode();
            for (int i = 1; i < levels; i++)
            {
                root = new TreeNode { Value = i, Child = root };
            }

            return root;
        }

        static int Depth(TreeNode node) => node.Child is null ? 1 : 1 + Depth(node.Child);
    }

    [Fact]
    public void RoundTrip_ConfiguredTypeWithoutAttributes_UsesGivenNumbers()
    {
        var model = new ProtoModel().Add(typeof(Plain), new Dictionary<string, int> { ["Name"] = 3, ["Count"] = 1 });

        var bytes = model.Serialize(new Plain { Name = "n", Count = 2 });

        Assert.Equal(new byte[] { 0x08, 0x02, 0x1A, 0x01, 0x6E }, bytes);
        var back = model.Deserialize<Plain>(bytes);
        Assert.Equal(("n", 2), (back.Name, back.Count));
    }

    [Fact]
    public void RoundTrip_Surrogate_ConvertsBothWays()
    {
        var model = new ProtoModel().AddSurrogate(typeof(Money), typeof(MoneySurrogate));

        var back = model.Deserialize<HoldsMoney>(model.Serialize(new HoldsMoney { Price = new Money(12.5m, "EUR") }));

        Assert.Equal(new Money(12.5m, "EUR"), back.Price);
    }

    [Fact]
    public void Serialize_UnannotatedType_ThrowsAndCanSerializeIsFalse()
    {
        Assert.False(_model.CanSerialize(typeof(Plain)));
        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(new Plain()));
        Assert.Contains("Plain", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_OverwriteList_ReplacesConstructorItems_DefaultAppends()
    {
        var bytes = _model.Serialize(new ListDefaults());

        var back = _model.Deserialize<ListDefaults>(bytes);

        Assert.Equal(["ctor", "ctor"], back.Appended);
        Assert.Equal(["ctor"], back.Overwritten);
    }

    [ProtoContract]
    public sealed class ListDefaults
    {
        [ProtoMember(1)] public List<string> Appended { get; set; } = ["ctor"];

        [ProtoMember(2, OverwriteList = true)] public List<string> Overwritten { get; set; } = ["ctor"];
    }

    public sealed class Plain
    {
        public string? Name { get; set; }

        public int Count { get; set; }
    }

    public sealed record Money(decimal Amount, string Currency);

    [ProtoContract]
    public sealed class MoneySurrogate
    {
        [ProtoMember(1)] public decimal Amount { get; set; }

        [ProtoMember(2)] public string? Currency { get; set; }

        public static implicit operator MoneySurrogate(Money value) => new() { Amount = value.Amount, Currency = value.Currency };

        public static implicit operator Money(MoneySurrogate value) => new(value.Amount, value.Currency!);
    }

    [ProtoContract]
    public sealed class HoldsMoney
    {
        [ProtoMember(1)] public Money? Price { get; set; }
    }
}
