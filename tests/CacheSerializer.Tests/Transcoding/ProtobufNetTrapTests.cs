using System.Net;
using CacheSerializer.Tests.Transcoding.Contracts;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The protobuf traps that bite cache users, each refused at Serialize with the fix named, or kept exactly: never an
/// entry that silently reads back different.
/// </summary>
public class ProtobufNetTrapTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    private T RoundTrip<T>(T value) => _transcoder.Deserialize<T>(_transcoder.Serialize(value))!;

    [Fact]
    public void Deserialize_BaseOfAStoredSubtype_ReturnsTheSubtypeWithEveryLevel()
    {
        CacheItem item = _transcoder.Serialize(new Dog { Name = "Rex", Legs = 4, GoodBoy = true });

        Animal? back = _transcoder.Deserialize<Animal>(item);

        Assert.Equal(new Dog { Name = "Rex", Legs = 4, GoodBoy = true }, Assert.IsType<Dog>(back));
    }

    [Fact]
    public void Deserialize_MembersDeclaredAsTheBase_KeepTheirSubtypes()
    {
        var kennel = new Kennel { Resident = new Dog { Name = "Rex", GoodBoy = true }, Visitors = [new Animal { Name = "Tweety" }, new Mammal { Legs = 2 }] };

        Kennel back = RoundTrip(kennel);

        Assert.Equal(new Dog { Name = "Rex", GoodBoy = true }, Assert.IsType<Dog>(back.Resident));
        Assert.Equal([new Animal { Name = "Tweety" }, new Mammal { Legs = 2 }], back.Visitors!);
        Assert.IsType<Mammal>(back.Visitors![1]);
    }

    [Fact]
    public void Serialize_SubtypeItsBaseDoesNotInclude_ThrowsNamingBothAndAFreeNumber()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new Extended { Id = 1, Extra = 2 }));

        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.Extended: CacheSerializer.Tests.Transcoding.Contracts.Extended derives from "
            + "the contract CacheSerializer.Tests.Transcoding.Contracts.Basic, which does not declare it as a subtype, so protobuf-net would store only "
            + "CacheSerializer.Tests.Transcoding.Contracts.Extended's own members and read the entry back as a CacheSerializer.Tests.Transcoding.Contracts.Basic. "
            + "Add [ProtoInclude(3, typeof(Extended))] to Basic (3 is its lowest free field number), or call model[typeof(Basic)].AddSubType(3, typeof(Extended)).",
            e.Message);
        Assert.Equal(typeof(Extended), e.DataType);
    }

    [Fact]
    public void Serialize_MemberOfASubtypeItsBaseDoesNotInclude_ThrowsNamingTheStoredType()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new HoldsExtended { Value = new Extended { Extra = 2 } }));

        Assert.StartsWith(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.HoldsExtended: CacheSerializer.Tests.Transcoding.Contracts.Extended derives from the contract",
            e.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_SubtypeAddedOnTheModel_IsAcceptedAndRoundTrips()
    {
        RuntimeTypeModel model = ProtobufTranscoder.CreateModel();
        model[typeof(Basic)].AddSubType(3, typeof(Extended));
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        Basic? back = transcoder.Deserialize<Basic>(transcoder.Serialize(new Extended { Id = 1, Name = "n", Extra = 2 }));

        Assert.Equal(new Extended { Id = 1, Name = "n", Extra = 2 }, Assert.IsType<Extended>(back));
    }

    [Fact]
    public void Serialize_IncludeNumberAMemberAlsoUses_ThrowsNamingBoth()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new Clashing { A = 1 }));

        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.Clashing: CacheSerializer.Tests.Transcoding.Contracts.Clashing includes its subtype "
            + "CacheSerializer.Tests.Transcoding.Contracts.ClashingChild at field number 2, which its member B also uses (protobuf-net: \"duplicate field "
            + "number\"). Give the [ProtoInclude] a free number, such as 3.",
            e.Message);
    }

    [Fact]
    public void Serialize_ContractHoldingAClashingContract_ThrowsNamingTheStoredTypeAndTheClash()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new HoldsClashing { Items = [] }));

        Assert.StartsWith(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.HoldsClashing: CacheSerializer.Tests.Transcoding.Contracts.Clashing includes its subtype",
            e.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void RoundTrip_NullEmptyAndFilledCollections_ComeBackAsTheyWere()
    {
        Unwrapped back = RoundTrip(new Unwrapped { Names = [], Numbers = null, Packed = [7], Counts = [], Ids = null, Points = [new Point3 { X = 1 }] });

        Assert.Equal([], back.Names!);
        Assert.Null(back.Numbers);
        Assert.Equal([7L], back.Packed!);
        Assert.Equal([], back.Counts!);
        Assert.Null(back.Ids);
        Assert.Equal(1, Assert.Single(back.Points!).X);
    }

    [Fact]
    public void RoundTrip_NullWrappingOff_EmptyCollectionsReadBackNullAsInPlainProtobufNet()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { NullWrappedCollections = false });

        Unwrapped back = transcoder.Deserialize<Unwrapped>(transcoder.Serialize(new Unwrapped { Names = [], Counts = [] }))!;

        Assert.Null(back.Names);
        Assert.Null(back.Counts);
    }

    [Fact]
    public void Serialize_CollectionTheConstructorFills_ThrowsNamingTheMemberAndOverwriteList()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new Prefilled { Tags = ["x"] }));

        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.Prefilled: the constructor of CacheSerializer.Tests.Transcoding.Contracts.Prefilled "
            + "fills its collection Tags, and protobuf-net adds what it reads to the items already there (an empty or null Tags reads back as the "
            + "constructor's items, OverwriteList or not). Have the constructor leave it null or empty, and fill it where the object is built.",
            e.Message);
    }

    [Fact]
    public void Serialize_CollectionTheConstructorFillsWithOverwriteList_IsRefusedToo()
    {
        // What the guard prevents, measured with protobuf-net itself: an empty list comes back as the constructor's.
        var model = ProtoBuf.Meta.RuntimeTypeModel.Create();
        using var stream = new MemoryStream();
        model.Serialize(stream, new PrefilledOverwritten { Tags = [] });
        Assert.Equal(["default"], model.Deserialize<PrefilledOverwritten>(stream.ToArray().AsSpan()).Tags!);

        Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new PrefilledOverwritten { Tags = [] }));
    }

    [Fact]
    public void RoundTrip_CollectionTheConstructorCreatesEmpty_ComesBackAsWritten()
    {
        Assert.Equal(["x"], RoundTrip(new Initialised { Tags = ["x"] }).Tags);
        Assert.Equal([], RoundTrip(new Initialised { Tags = [] }).Tags);
    }

    [Fact]
    public void Serialize_ListSubclassWithAMemberAsRoot_ThrowsNamingTheMemberAndTheFixes()
    {
        var value = new TaggedList { "a" };
        value.Tag = "t";

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(value));

        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.TaggedList: CacheSerializer.Tests.Transcoding.Contracts.TaggedList is a collection "
            + "with members of its own (Tag), and protobuf-net writes a collection as its items only, so those members would be lost. Hold the items in a "
            + "member of a contract instead of deriving from the collection (composition), or mark TaggedList [ProtoContract(IgnoreListHandling = true)] "
            + "so its members are written and its items are not.",
            e.Message);
    }

    [Fact]
    public void Serialize_ListSubclassWithAMemberAsAMember_ThrowsNamingTheCollection()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new HoldsTaggedList { Tags = [] }));

        Assert.StartsWith(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.HoldsTaggedList: CacheSerializer.Tests.Transcoding.Contracts.TaggedList is a collection with members of its own (Tag)",
            e.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_CollectionSubclassAsADictionaryValue_ThrowsNamingTheCollection()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new HoldsNamedCollections { ByName = [] }));

        Assert.StartsWith(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.HoldsNamedCollections: CacheSerializer.Tests.Transcoding.Contracts.NamedCollection is a collection with members of its own (Name)",
            e.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void RoundTrip_CollectionSubclassWithoutMembers_KeepsItsTypeAndItems()
    {
        HoldsNames back = RoundTrip(new HoldsNames { Values = ["a", "b"] });

        Assert.Equal(["a", "b"], Assert.IsType<Names>(back.Values));
    }

    [Fact]
    public void RoundTrip_CollectionSubclassWithIgnoreListHandling_KeepsItsMembers()
    {
        CountedList back = RoundTrip(new CountedList { Count2 = 3 });

        Assert.Equal(3, back.Count2);
    }

    [Fact]
    public void Serialize_ReadOnlyCollectionMember_ThrowsWithProtobufNetsReason()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new HoldsReadOnly { Values = new([1]) }));

        Assert.Equal(typeof(HoldsReadOnly), e.DataType);
        Assert.IsType<ProtoException>(e.InnerException);
        Assert.Contains("No parameterless constructor found for System.Collections.ObjectModel.ReadOnlyCollection", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_TypeProtobufNetWritesButCannotCreate_IsRefusedAtSerialize()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new NoParameterlessConstructor(1)));

        Assert.StartsWith(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.NoParameterlessConstructor: protobuf-net could write it but not read it back (",
            e.Message,
            StringComparison.Ordinal);
        Assert.NotNull(e.InnerException);
    }

    [Fact]
    public void Serialize_TypeWithoutAContract_ThrowsWithTheWaysToFixIt()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new NoContract()));

        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.NoContract: protobuf-net has no contract for it. Mark it [ProtoContract] with "
            + "[ProtoMember(n)] on its members (or [DataContract] with [DataMember(Order = n)]), configure it on the model (RuntimeTypeModel.Add, a "
            + "surrogate), register a CacheCodec<NoContract> in ProtobufTranscoderOptions.Codecs, or, as a last resort, list it in "
            + "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes.",
            e.Message);
    }

    [Fact]
    public void Serialize_RefusedType_FailsAgainWithoutRunningTheGuardsTwice()
    {
        TranscoderException first = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new Extended()));
        TranscoderException second = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new Extended()));

        Assert.Equal(first.Message, second.Message);
        Assert.NotSame(first, second);
    }

    [Theory]
    [InlineData(DateTimeKind.Utc)]
    [InlineData(DateTimeKind.Unspecified)]
    [InlineData(DateTimeKind.Local)]
    public void RoundTrip_DateTimeMember_KeepsTicksAndKind(DateTimeKind kind)
    {
        var when = new DateTime(638_000_000_000_000_123, kind);

        DateTime back = RoundTrip(new BclValues { When = when }).When;

        Assert.Equal(when.Ticks, back.Ticks);
        Assert.Equal(kind, back.Kind);
    }

    [Fact]
    public void RoundTrip_BclMembers_ComeBackExactly()
    {
        var value = new BclValues
        {
            When = DateTime.MaxValue,
            Money = 1.50m,
            Id = new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"),
            Span = TimeSpan.MinValue,
            Day = DateOnly.MaxValue,
            Time = new TimeOnly(1),
            Version = new Version(1, 2, 3, 4),
            Address = IPAddress.Parse("fe80::1%3"),
            Link = new Uri("https://example.org/a?b=c"),
        };

        BclValues back = RoundTrip(value);

        Assert.Equal(value, back);
        Assert.Equal("1.50", back.Money.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(decimal.GetBits(1.50m), decimal.GetBits(back.Money));
        Assert.Equal(DateTime.MaxValue.Ticks, back.When.Ticks);
    }

    [Theory]
    [InlineData("0.0000000000000000000000000001")]
    [InlineData("-79228162514264337593543950335")]
    [InlineData("123.4500")]
    public void RoundTrip_DecimalMember_KeepsValueAndScale(string text)
    {
        decimal money = decimal.Parse(text, System.Globalization.CultureInfo.InvariantCulture);

        Assert.Equal(decimal.GetBits(money), decimal.GetBits(RoundTrip(new BclValues { Money = money }).Money));
    }

    [Fact]
    public void Serialize_DateTimeOffsetMemberUnderApplicationModelWithParseableTypesOn_ThrowsNamingTheMemberAndTheFix()
    {
        var model = RuntimeTypeModel.Create();
        model.AllowParseableTypes = true;
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new Offsets()));

        Assert.Equal(TranscoderErrorKind.Unstorable, e.Kind);
        Assert.Equal(
            "Cannot store a CacheSerializer.Tests.Transcoding.Contracts.Offsets: CacheSerializer.Tests.Transcoding.Contracts.Offsets.At is a DateTimeOffset, "
            + "which protobuf-net writes with AllowParseableTypes (on in the model given as ProtobufTranscoderOptions.Model) as its ToString() text, "
            + "dropping everything below the second and depending on the culture. Use the transcoder's own model (ProtobufTranscoder.CreateModel(), which "
            + "writes parseable types itself and keeps every tick and the offset of a DateTimeOffset), or turn AllowParseableTypes off on yours and give "
            + "DateTimeOffset a surrogate. Or store the value as a DateTime in UTC plus its offset.",
            e.Message);
    }

    [Fact]
    public void Serialize_ParseableMembersFromManyThreadsAtOnce_EveryCallStoresAndReadsThem()
    {
        // The transcoder gives Version and IPAddress their string surrogates the first time a stored type reaches them;
        // threads meeting them at once on a fresh transcoder must all get there (one sets, the others find it set).
        var value = new BclValues { Version = new Version(1, 2, 3, 4), Address = IPAddress.Parse("10.1.2.3"), Link = new Uri("https://example.org/") };
        for (int round = 0; round < 20; round++)
        {
            var transcoder = new ProtobufTranscoder();
            var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
            var read = new System.Collections.Concurrent.ConcurrentQueue<BclValues>();
            using var start = new Barrier(8);
            Thread[] threads = Enumerable.Range(0, 8).Select(_ => new Thread(() =>
            {
                start.SignalAndWait();
                try
                {
                    read.Enqueue(transcoder.Deserialize<BclValues>(transcoder.Serialize(value))!);
                }
                catch (Exception e)
                {
                    failures.Enqueue(e);
                }
            })).ToArray();
            foreach (Thread thread in threads)
            {
                thread.Start();
            }

            foreach (Thread thread in threads)
            {
                thread.Join();
            }

            Assert.Empty(failures);
            Assert.All(read, back => Assert.Equal(value, back));
        }
    }

    [Fact]
    public void RoundTrip_DateTimeOffsetMembersWithTheDefaultModel_KeepEveryTickAndTheOffset()
    {
        // The default options: the transcoder's own model, where parseable types are written as text (issue 24: DateTimeOffset
        // must not need AllowParseableTypes off). Fails if a protobuf-net upgrade lets parseable handling take the member again.
        var at = new DateTimeOffset(638_000_000_000_000_123, TimeSpan.FromMinutes(-(14 * 60)));
        var value = new Offsets { At = at, Maybe = new DateTimeOffset(DateTime.MaxValue.Ticks, TimeSpan.FromHours(14)) };

        Offsets back = _transcoder.Deserialize<Offsets>(_transcoder.Serialize(value))!;

        Assert.Equal(at.Ticks, back.At.Ticks);
        Assert.Equal(at.Offset, back.At.Offset);
        Assert.Equal(DateTime.MaxValue.Ticks, back.Maybe!.Value.Ticks);
        Assert.Equal(TimeSpan.FromHours(14), back.Maybe!.Value.Offset);
    }

    [Fact]
    public void RoundTrip_DateTimeOffsetMembersWithParseableTypesOff_KeepTicksAndOffset()
    {
        RuntimeTypeModel model = ProtobufTranscoder.CreateModel();
        model.AllowParseableTypes = false;
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });
        var at = new DateTimeOffset(638_000_000_000_000_123, TimeSpan.FromMinutes(-(14 * 60)));

        foreach (Offsets value in new[]
        {
            new Offsets { At = at, Maybe = new DateTimeOffset(DateTime.MaxValue.Ticks, TimeSpan.FromHours(14)) },
            new Offsets { At = DateTimeOffset.MinValue, Maybe = null },
            new Offsets { At = new DateTimeOffset(2026, 11, 23, 8, 30, 0, TimeSpan.FromMinutes(330)) },
        })
        {
            Offsets back = transcoder.Deserialize<Offsets>(transcoder.Serialize(value))!;

            Assert.Equal(value.At.Ticks, back.At.Ticks);
            Assert.Equal(value.At.Offset, back.At.Offset);
            Assert.Equal(value.Maybe?.Ticks, back.Maybe?.Ticks);
            Assert.Equal(value.Maybe?.Offset, back.Maybe?.Offset);
        }
    }

    [Fact]
    public void Serialize_DateTimeOffsetSurrogate_WritesTicksAndZigZagOffsetMinutes()
    {
        CacheItem item = _transcoder.Serialize(new Offsets { At = new DateTimeOffset(100, TimeSpan.FromHours(-1)) });

        // After the 9-byte header: field 1 { ticks = 100 (64), offset_minutes = zigzag(-60) = 119 (0x77) }
        Assert.Equal("0A0408641077", Convert.ToHexString(item.Data.AsSpan(9)));
    }

    [Theory]
    [InlineData(new byte[] { 0x0A, 0x05, 0x41 })]
    [InlineData(new byte[] { 0x0B })]
    [InlineData(new byte[] { 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 })]
    [InlineData(new byte[] { 0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x07 })]
    public void Deserialize_MalformedBody_ThrowsTranscoderExceptionWithProtobufNetsAsInner(byte[] body)
    {
        byte[] header = _transcoder.Serialize(new Point3()).Data.AsSpan(0, 9).ToArray();

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<Point3>(TranscoderTestHelpers.Item(0xC541, [.. header, .. body])));

        Assert.Equal(0xC541u, e.Flags);
        Assert.Equal(typeof(Point3), e.DataType);
        Assert.NotNull(e.InnerException);
        Assert.StartsWith("Cannot read the item under flags 0xC541 as CacheSerializer.Tests.Transcoding.Contracts.Point3: ", e.Message, StringComparison.Ordinal);
    }
}
