using CacheSerializer.Protobuf;
using CacheSerializer.Tests.Protobuf.Generated;
using Google.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

/// <summary>
/// The engine against Google.Protobuf's generated code for the same schemas (Schemas/*.proto): our bytes parse into the
/// equal message, Google's bytes read into the equal POCO, and the bytes are identical where no inheritance or
/// null/empty distinction is involved.
/// </summary>
public class CrossImplementationTests
{
    private readonly ProtoModel _model = new();

    [Fact]
    public void RpcMessage_BothWays_BytesIdentical()
    {
        var poco = new RpcPoco { Id = 42, Status = -3, Method = "GetOrders", Host = "api-1.internal", Body = "{\"page\":2}" };
        var google = new RpcMessage { Id = 42, Status = -3, Method = "GetOrders", Host = "api-1.internal", Body = "{\"page\":2}" };

        AssertBothWays(poco, google, RpcMessage.Parser);
    }

    [Fact]
    public void EightUInt64_BothWays_BytesIdentical()
    {
        var poco = new EightPoco { A = 1, B = 300, C = ulong.MaxValue, D = 0, E = 1UL << 40, F = 7, G = 0, H = 99 };
        var google = new EightUInt64 { A = 1, B = 300, C = ulong.MaxValue, D = 0, E = 1UL << 40, F = 7, G = 0, H = 99 };

        AssertBothWays(poco, google, EightUInt64.Parser);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(32)]
    [InlineData(1024)]
    public void Records_BothWays_BytesIdentical(int n)
    {
        var poco = new RecordSetPoco { Version = 3, Count = n, Entries = [] };
        var google = new RecordSet { Version = 3, Count = n };
        for (int i = 0; i < n; i++)
        {
            poco.Entries.Add(new RecordEntryPoco { Id = i * 1000L, Name = "record-" + i });
            google.Entries.Add(new RecordEntry { Id = i * 1000L, Name = "record-" + i });
        }

        var ours = _model.Serialize(poco);

        Assert.Equal(google.ToByteArray(), ours);
        Assert.Equal(google, RecordSet.Parser.ParseFrom(ours));
        var back = _model.Deserialize<RecordSetPoco>(google.ToByteArray());
        Assert.Equal(poco.Entries, back.Entries);
        Assert.Equal((3, n), (back.Version, back.Count));
    }

    [Fact]
    public void Nested_BothWays_BytesIdentical()
    {
        var poco = new OuterPoco
        {
            First = new InnerPoco { Number = 5, Text = "first" },
            Items = [new InnerPoco { Number = 1 }, new InnerPoco { Text = "two" }],
            Name = "outer",
            Ratio = 0.25,
            Weight = -1.5f,
            Flag = true,
            Big = long.MinValue,
            Blob = [1, 2, 3],
        };
        var google = new Outer
        {
            First = new Inner { Number = 5, Text = "first" },
            Items = { new Inner { Number = 1 }, new Inner { Text = "two" } },
            Name = "outer",
            Ratio = 0.25,
            Weight = -1.5f,
            Flag = true,
            Big = long.MinValue,
            Blob = ByteString.CopyFrom(1, 2, 3),
        };

        var ours = _model.Serialize(poco);

        Assert.Equal(google.ToByteArray(), ours);
        Assert.Equal(google, Outer.Parser.ParseFrom(ours));
        var back = _model.Deserialize<OuterPoco>(google.ToByteArray());
        Assert.Equal(poco.First, back.First);
        Assert.Equal(poco.Items, back.Items);
        Assert.Equal((poco.Name, poco.Ratio, poco.Weight, poco.Flag, poco.Big), (back.Name, back.Ratio, back.Weight, back.Flag, back.Big));
        Assert.Equal(poco.Blob, back.Blob);
    }

    [Fact]
    public void Maps_BothWays_SameMessage()
    {
        var poco = new MapsPoco
        {
            Counts = new() { ["a"] = 1, ["b"] = 0 },
            Names = new Dictionary<int, string> { [1] = "one", [0] = "zero" },
            Inners = new() { ["x"] = new InnerPoco { Number = 9, Text = "nine" } },
        };
        var google = new Maps
        {
            Counts = { ["a"] = 1, ["b"] = 0 },
            Names = { [1] = "one", [0] = "zero" },
            Inners = { ["x"] = new Inner { Number = 9, Text = "nine" } },
        };

        var ours = _model.Serialize(poco);

        // Map entry order follows each dictionary's enumeration, so bytes match when both enumerate in insertion order.
        Assert.Equal(google.ToByteArray(), ours);
        Assert.Equal(google, Maps.Parser.ParseFrom(ours));
        var back = _model.Deserialize<MapsPoco>(google.ToByteArray());
        Assert.Equal(poco.Counts, back.Counts);
        Assert.Equal(poco.Names, back.Names);
        Assert.Equal(poco.Inners, back.Inners);
    }

    [Fact]
    public void Repeats_PackedAndUnpacked_BothWays_BytesIdentical()
    {
        var poco = new RepeatsPoco
        {
            PackedInts = [1, -1, 300],
            UnpackedInts = [4, 5],
            PackedDoubles = [1.5, -2],
            Words = ["x", "", "zz"],
            PackedLongs = [0, ulong.MaxValue],
        };
        var google = new Repeats
        {
            PackedInts = { 1, -1, 300 },
            UnpackedInts = { 4, 5 },
            PackedDoubles = { 1.5, -2 },
            Words = { "x", "", "zz" },
            PackedLongs = { 0, ulong.MaxValue },
        };

        var ours = _model.Serialize(poco);

        Assert.Equal(google.ToByteArray(), ours);
        Assert.Equal(google, Repeats.Parser.ParseFrom(ours));
        var back = _model.Deserialize<RepeatsPoco>(google.ToByteArray());
        Assert.Equal(poco.PackedInts, back.PackedInts);
        Assert.Equal(poco.UnpackedInts, back.UnpackedInts);
        Assert.Equal(poco.PackedDoubles, back.PackedDoubles);
        Assert.Equal(poco.Words, back.Words);
        Assert.Equal(poco.PackedLongs, back.PackedLongs);
    }

    [Fact]
    public void Repeats_ReaderAcceptsUnpackedDataForPackedMember()
    {
        // Field 1 written unpacked (three varint fields) although the POCO member says IsPacked.
        var back = _model.Deserialize<RepeatsPoco>(new byte[] { 0x08, 0x01, 0x08, 0x02, 0x08, 0x03 });

        Assert.Equal([1, 2, 3], back.PackedInts!);
    }

    [Fact]
    public void Oneof_OursToGoogle_SubtypeIsTheOneofCase()
    {
        var square = new RoundedSquarePoco { Id = 7, Label = "r", Side = 2.5, CornerRadius = 0.5 };

        var parsed = Shape.Parser.ParseFrom(_model.Serialize<ShapePoco>(square));

        var expected = new Shape { Id = 7, Label = "r", Square = new Square { Side = 2.5, Corner = new Corner { CornerRadius = 0.5 } } };
        Assert.Equal(expected, parsed);
    }

    [Fact]
    public void Oneof_GoogleToOurs_BaseFieldsBeforeSubtype_ReadsDeepestType()
    {
        // Google writes fields in number order: the base's Id and Label come before the oneof at 11, the reverse of
        // protobuf-net's order; the reader moves the base fields onto the subtype instance.
        var google = new Shape { Id = 7, Label = "r", Square = new Square { Side = 2.5, Corner = new Corner { CornerRadius = 0.5 } } };

        var back = _model.Deserialize<ShapePoco>(google.ToByteArray());

        var rounded = Assert.IsType<RoundedSquarePoco>(back);
        Assert.Equal((7, "r", 2.5, 0.5), (rounded.Id, rounded.Label, rounded.Side, rounded.CornerRadius));
        Assert.True(rounded.AfterDeserializationRan());
    }

    [Fact]
    public void Oneof_Circle_BothWays()
    {
        var google = new Shape { Id = 1, Circle = new Circle { Radius = 3 } };

        var back = Assert.IsType<CirclePoco>(_model.Deserialize<ShapePoco>(google.ToByteArray()));
        Assert.Equal((1, 3.0), (back.Id, back.Radius));
        Assert.Equal(google, Shape.Parser.ParseFrom(_model.Serialize<ShapePoco>(back)));
    }

    [Fact]
    public void EmptyMarker_GoogleParser_LandsInUnknownFieldsAndKeepsElements()
    {
        var poco = new RepeatsPoco { PackedInts = [], UnpackedInts = [], Words = ["kept"] };

        var parsed = Repeats.Parser.ParseFrom(_model.Serialize(poco));

        Assert.Empty(parsed.PackedInts);
        Assert.Empty(parsed.UnpackedInts);
        Assert.Equal(["kept"], parsed.Words);

        // Google keeps the unknown marker groups and writes them back: our reader sees the empties again.
        var back = _model.Deserialize<RepeatsPoco>(parsed.ToByteArray());
        Assert.Equal([], back.PackedInts!);
        Assert.Equal([], back.UnpackedInts!);
        Assert.Null(back.PackedDoubles);
    }

    private void AssertBothWays<TPoco, TMessage>(TPoco poco, TMessage google, MessageParser<TMessage> parser)
        where TMessage : IMessage<TMessage>
    {
        var ours = _model.Serialize(poco);

        Assert.Equal(google.ToByteArray(), ours);
        Assert.Equal(google, parser.ParseFrom(ours));
        Assert.Equal(poco, _model.Deserialize<TPoco>(google.ToByteArray()));
    }
}
