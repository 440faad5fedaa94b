using System.Net;
using CacheSerializer.Tests.Transcoding.Contracts;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// An object item's body is exactly what protobuf-net's own Serialize writes, checked against a model built here with
/// protobuf-net's public API only (never the transcoder's), for every test contract; and bodies cross both ways.
/// </summary>
public class ProtobufNetCrossCheckTests
{
    // The object header is key 0, a 4-byte name hash and a 4-byte contract fingerprint: 9 bytes in front of the body.
    private const int HeaderLength = 9;

    private static readonly Guid SomeId = new("0f8fad5b-d9cb-469f-a165-70867728950e");

    // Every case compares the stored body with protobuf-net's own bytes: with compression off, since object payloads of
    // 1 KiB and more are compressed by default (issue 24).
    private static ProtobufTranscoder Uncompressed() => new(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None });

    public static TheoryData<string> Names() => [.. Values().Keys];

    // Every value the matrix checks; collections appear null, empty and filled.
    public static IReadOnlyDictionary<string, object> Values() => new Dictionary<string, object>
    {
        ["formats"] = new Formats { Plain = -1, ZigZag = -1, Fixed = -1, ZigZagLong = long.MinValue, FixedUnsigned = 7, Colour = Colour.Blue, Real = -0.0, Single = float.NaN, Flag = true, Text = "", Blob = [], Big = ulong.MaxValue },
        ["formats-zero"] = new Formats(),
        ["defaults-zero-over-default"] = new Defaults { Five = 0, Required = 0, Label = "" },
        ["defaults-at-default"] = new Defaults(),
        ["nullables-zero"] = new Nullables { Count = 0, Colour = Colour.None, Real = 0, Id = Guid.Empty },
        ["nullables-null"] = new Nullables(),
        ["grouped"] = new Grouped { AsGroup = new Point3 { X = 1, Y = -2, Z = 3 }, AsMessage = new Point3 { Z = 9 } },
        ["bcl"] = new BclValues
        {
            When = new DateTime(2026, 11, 23, 8, 30, 15, 123, DateTimeKind.Utc).AddTicks(4567),
            Money = -79228162514264337593543950.335m,
            Id = SomeId,
            Span = TimeSpan.FromTicks(-1),
            Day = new DateOnly(2026, 11, 23),
            Time = new TimeOnly(23, 59, 59, 999),
            Version = new Version(1, 2, 3, 4),
            Address = IPAddress.Parse("fe80::1%3"),
            Link = new Uri("https://example.org/a?b=c"),
        },
        ["bcl-extremes"] = new BclValues { When = DateTime.MaxValue, Money = 0.00m, Span = TimeSpan.MinValue, Day = DateOnly.MinValue, Time = TimeOnly.MaxValue },
        ["maps"] = new Maps { Numbers = new() { [-1] = -1, [0] = 0, [1] = long.MaxValue }, Points = new() { ["a"] = new Point3 { X = 1 }, [""] = new Point3() }, NotAMap = new() { ["k"] = "v" } },
        ["maps-empty"] = new Maps { Numbers = [], Points = [], NotAMap = [] },
        ["wrapped"] = new Wrapped { Names = ["a", ""], Numbers = [0, -1], Packed = [1, 300], Counts = new() { ["x"] = 1 }, Ids = [SomeId], Points = [new Point3 { Y = 2 }] },
        ["wrapped-empty"] = new Wrapped { Names = [], Numbers = [], Packed = [], Counts = [], Ids = [], Points = [] },
        ["wrapped-null"] = new Wrapped(),
        ["unwrapped"] = new Unwrapped { Names = ["a", ""], Numbers = [0, -1], Packed = [1, 300], Counts = new() { ["x"] = 1 }, Ids = [SomeId], Points = [new Point3 { Y = 2 }] },
        ["unwrapped-empty"] = new Unwrapped { Names = [], Numbers = [], Packed = [], Counts = [], Ids = [], Points = [] },
        ["surrogate"] = new Priced { Price = new Money("EUR", 1999), History = [new Money("EUR", 2499), new Money("USD", 0)] },
        ["include-chain"] = new Dog { Name = "Rex", Legs = 4, GoodBoy = true },
        ["include-middle"] = new Mammal { Name = "Cat", Legs = 4 },
        ["include-members"] = new Kennel { Resident = new Dog { Name = "Rex" }, Visitors = [new Animal { Name = "Tweety" }, new Mammal { Legs = 2 }] },
        ["data-contract"] = new DataContractShape { Id = 7, Name = "seven" },
        ["list-of-contracts"] = new List<Point3> { new() { X = 1 }, new() },
        ["dictionary-root"] = new Dictionary<int, Point3> { [1] = new Point3 { Z = 3 } },
        ["array-root"] = new[] { new Animal { Name = "a" }, new Dog { GoodBoy = true } },
    };

    // A model built from protobuf-net's public API with the transcoder's documented defaults.
    private static RuntimeTypeModel Reference()
    {
        var model = RuntimeTypeModel.Create();
        model.AllowParseableTypes = true;
        model.IncludeDateTimeKind = true;
        return model;
    }

    private static byte[] ProtobufNetBytes(TypeModel model, object value)
    {
        using var stream = new MemoryStream();
        model.Serialize(stream, value);
        return stream.ToArray();
    }

    private static byte[] Body(CacheItem item) => item.Data.AsSpan(HeaderLength).ToArray();

    [Theory]
    [MemberData(nameof(Names))]
    public void Serialize_NullWrappingOff_BodyIsExactlyProtobufNetsBytes(string name)
    {
        object value = Values()[name];
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { NullWrappedCollections = false });

        CacheItem item = transcoder.Serialize(value);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), value)), Convert.ToHexString(Body(item)));
    }

    [Theory]
    [MemberData(nameof(Names))]
    public void Serialize_ApplicationModel_BodyIsExactlyThatModelsBytes(string name)
    {
        object value = Values()[name];
        RuntimeTypeModel model = Reference();
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        CacheItem item = transcoder.Serialize(value);

        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), value)), Convert.ToHexString(Body(item)));
    }

    [Theory]
    [InlineData("wrapped")]
    [InlineData("wrapped-empty")]
    [InlineData("wrapped-null")]
    [InlineData("formats")]
    [InlineData("bcl")]
    [InlineData("include-chain")]
    [InlineData("grouped")]
    [InlineData("data-contract")]
    public void Serialize_DefaultModelOnContractsWithNoUnwrappedCollection_BodyIsExactlyProtobufNetsBytes(string name)
    {
        object value = Values()[name];

        CacheItem item = Uncompressed().Serialize(value);

        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), value)), Convert.ToHexString(Body(item)));
    }

    [Fact]
    public void Serialize_DefaultModel_WritesUnannotatedCollectionsAsProtobufNetWritesNullWrappedOnes()
    {
        var ours = (Unwrapped)Values()["unwrapped"];
        var theirs = (Wrapped)Values()["wrapped"];

        CacheItem item = Uncompressed().Serialize(ours);

        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), theirs)), Convert.ToHexString(Body(item)));
    }

    [Theory]
    [MemberData(nameof(Names))]
    public void Deserialize_BodyWrittenByProtobufNet_ReadsBackWhatItWrote(string name)
    {
        object value = Values()[name];
        RuntimeTypeModel model = Reference();
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });
        byte[] header = transcoder.Serialize(value).Data.AsSpan(0, HeaderLength).ToArray();

        object? back = transcoder.Deserialize(TranscoderTestHelpers.Item(0xC541, [.. header, .. ProtobufNetBytes(Reference(), value)]));

        Assert.Equal(value.GetType(), back!.GetType());
        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), value)), Convert.ToHexString(ProtobufNetBytes(Reference(), back)));
    }

    [Fact]
    public void Deserialize_OurBodyInAProtobufNetApplicationWithNullWrappedCollection_KeepsNullAndEmpty()
    {
        ProtobufTranscoder transcoder = Uncompressed();
        byte[] empty = Body(transcoder.Serialize(new Unwrapped { Names = [], Counts = [], Points = null }));
        byte[] filled = Body(transcoder.Serialize(Values()["unwrapped"]));

        Wrapped readEmpty = Reference().Deserialize<Wrapped>(empty.AsSpan());
        Wrapped readFilled = Reference().Deserialize<Wrapped>(filled.AsSpan());

        Assert.Equal([], readEmpty.Names!);
        Assert.Equal([], readEmpty.Counts!);
        Assert.Null(readEmpty.Points);
        Assert.Null(readEmpty.Numbers);
        Assert.Equivalent(Values()["wrapped"], readFilled, strict: true);
    }

    [Fact]
    public void Deserialize_ProtobufNetApplicationsBodyWithNullWrappedCollection_KeepsNullAndEmpty()
    {
        ProtobufTranscoder transcoder = Uncompressed();
        byte[] header = transcoder.Serialize(new Unwrapped()).Data.AsSpan(0, HeaderLength).ToArray();
        byte[] theirs = ProtobufNetBytes(Reference(), new Wrapped { Names = [], Numbers = null, Points = [new Point3 { X = 5 }] });

        Unwrapped back = transcoder.Deserialize<Unwrapped>(TranscoderTestHelpers.Item(0xC541, [.. header, .. theirs]))!;

        Assert.Equal([], back.Names!);
        Assert.Null(back.Numbers);
        Assert.Equal(5, Assert.Single(back.Points!).X);
    }

    [Fact]
    public void Serialize_IncludeChainRoot_WritesTheSubtypeFieldsBeforeTheBasesAsProtobufNetDoes()
    {
        CacheItem item = new ProtobufTranscoder(new ProtobufTranscoderOptions { NullWrappedCollections = false }).Serialize(new Dog { Name = "Rex", Legs = 4, GoodBoy = true });

        // field 5 (Mammal) { field 6 (Dog) { GoodBoy = true }, Legs = 4 }, then Animal.Name = "Rex"
        Assert.Equal("2A063202080108040A03526578", Convert.ToHexString(Body(item)));
    }

    [Fact]
    public void Serialize_ZigZagAndFixedSizeMinusOne_WriteProtobufNetsEncodings()
    {
        CacheItem item = Uncompressed().Serialize(new Formats { ZigZag = -1, Fixed = -1 });

        // field 2 ZigZag(-1) = 1; field 3 fixed64 -1
        Assert.Equal("1001" + "19FFFFFFFFFFFFFFFF", Convert.ToHexString(Body(item)));
    }

    [Theory]
    [InlineData(10)]
    [InlineData(300)]
    [InlineData(5_000)]
    [InlineData(20_000)]
    public void Serialize_BodiesAcrossThePooledBuffersSizes_AreExactlyProtobufNetsBytesEveryTime(int count)
    {
        // The body is written into a per-thread buffer (4 KiB, grown to 64 KiB, larger ones rented): small, grown and
        // rented bodies, each twice, so a reused buffer is checked too.
        var value = new Wrapped { Names = [.. Enumerable.Range(0, count).Select(i => $"name-{i}")], Points = [.. Enumerable.Range(0, count).Select(i => new Point3 { X = i, Y = -i })] };
        ProtobufTranscoder transcoder = Uncompressed();
        string expected = Convert.ToHexString(ProtobufNetBytes(Reference(), value));

        Assert.Equal(expected, Convert.ToHexString(Body(transcoder.Serialize(value))));
        Assert.Equal(expected, Convert.ToHexString(Body(transcoder.Serialize(value))));
        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(Reference(), new Point3 { Z = 1 })), Convert.ToHexString(Body(transcoder.Serialize(new Point3 { Z = 1 }))));
    }

    [Fact]
    public void Serialize_ConcurrentLargeAndSmallBodies_AreEachExactlyProtobufNetsBytes()
    {
        ProtobufTranscoder transcoder = Uncompressed();
        Wrapped[] values = Enumerable.Range(0, 64).Select(i => new Wrapped { Names = [.. Enumerable.Range(0, (i % 4) * 3_000).Select(n => $"{i}-{n}")] }).ToArray();
        string[] expected = values.Select(v => Convert.ToHexString(ProtobufNetBytes(Reference(), v))).ToArray();

        string[] actual = values.AsParallel().WithDegreeOfParallelism(4).Select(v => Convert.ToHexString(Body(transcoder.Serialize(v)))).ToArray();

        Assert.Equal(expected, actual);
    }
}
