using CacheSerializer.Tests.Transcoding.Contracts;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CacheSerializer.Tests.Transcoding;

public class ProtobufNetObjectTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    [Fact]
    public void Serialize_Contract_WritesTheProtobufNetFlagAndTheHashOfTheRuntimeTypesName()
    {
        CacheItem item = _transcoder.Serialize(Samples.Tree());

        // key 0, then FNV-1a 32 of "CacheSerializer.Tests.Transcoding.Contracts.SharedFolder", little-endian
        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal("00B498D08F", Convert.ToHexString(item.Data.AsSpan(0, 5)));
        Assert.Equal(0x8FD098B4u, Fnv1a32("CacheSerializer.Tests.Transcoding.Contracts.SharedFolder"));
    }

    [Fact]
    public void Serialize_AliasedContract_WritesTheAliasInsteadOfTheHash()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { TypeAliases = { [typeof(Item)] = 5 } });

        CacheItem item = transcoder.Serialize(new Item { Name = "x" });
        byte[] fingerprint = new byte[4];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(fingerprint, transcoder.DescribeContract(typeof(Item)).Fingerprint);

        // varint((5 << 1) | 1), the 4-byte fingerprint, then the body
        Assert.Equal("0B" + Convert.ToHexString(fingerprint) + "0A0178", Convert.ToHexString(item.Bytes()));
    }

    [Fact]
    public void Deserialize_HashHeaderOfAnAliasedType_StillReads()
    {
        CacheItem written = _transcoder.Serialize(new Item { Name = "x" });
        var aliased = new ProtobufTranscoder(new ProtobufTranscoderOptions { TypeAliases = { [typeof(Item)] = 5 } });

        Assert.Equal(new Item { Name = "x" }, aliased.Deserialize(written));
    }

    [Fact]
    public void Serialize_TwoTypesWhoseNamesHashAlike_RefusesTheSecondNamingBoth()
    {
        var transcoder = new ProtobufTranscoder();
        transcoder.Serialize(new HashTwins.TK2TX { Id = 1 });

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new HashTwins.TWC0A { Id = 2 }));

        Assert.Equal(
            "The type names of CacheSerializer.Tests.Transcoding.Contracts.HashTwins+TK2TX and CacheSerializer.Tests.Transcoding.Contracts.HashTwins+TWC0A "
            + "have the same 32-bit hash (0x8342CDDE), which an object item's header carries: a payload could not say which one it holds. Give one of them "
            + "an alias in ProtobufTranscoderOptions.TypeAliases.",
            e.Message);
        Assert.Equal(typeof(HashTwins.TWC0A), e.DataType);
    }

    [Fact]
    public void Serialize_TwoTypesWhoseNamesHashAlikeOneAliased_BothRoundTrip()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { TypeAliases = { [typeof(HashTwins.TWC0A)] = 1 } });

        object? first = transcoder.Deserialize(transcoder.Serialize(new HashTwins.TK2TX { Id = 1 }));
        object? second = transcoder.Deserialize(transcoder.Serialize(new HashTwins.TWC0A { Id = 2 }));

        Assert.Equal(1, Assert.IsType<HashTwins.TK2TX>(first).Id);
        Assert.Equal(2, Assert.IsType<HashTwins.TWC0A>(second).Id);
    }

    private static uint Fnv1a32(string text)
    {
        uint hash = 2166136261u;
        foreach (byte b in System.Text.Encoding.UTF8.GetBytes(text))
        {
            hash = (hash ^ b) * 16777619u;
        }

        return hash;
    }

    [Fact]
    public void Deserialize_ThreeLevelContract_ReturnsTheDeepestTypeWithEveryLevel()
    {
        SharedFolder tree = Samples.Tree();
        CacheItem item = _transcoder.Serialize(tree);

        object? untyped = _transcoder.Deserialize(item);
        Item? asRoot = _transcoder.Deserialize<Item>(item);
        Folder? asMiddle = _transcoder.Deserialize<Folder>(item);

        Assert.Equal(tree, Assert.IsType<SharedFolder>(untyped));
        Assert.Equal(tree, Assert.IsType<SharedFolder>(asRoot));
        Assert.Equal(tree, Assert.IsType<SharedFolder>(asMiddle));
    }

    [Fact]
    public void Deserialize_NullAndEmptyListsInAContract_ComeBackAsTheyWere()
    {
        CacheItem item = _transcoder.Serialize(Samples.Tree());

        var back = (SharedFolder)_transcoder.Deserialize(item)!;

        Assert.NotNull(back.Tags);
        Assert.Empty(back.Tags);
        Assert.Null(back.Children![1].Tags);
        Assert.Empty(((Folder)back.Children[1]).Children!);
    }

    [Fact]
    public void Deserialize_SubtypeInAFreshTranscoderReadAsItsRoot_ResolvesThroughTheRootsIncludes()
    {
        CacheItem item = _transcoder.Serialize(Samples.Tree());
        var reader = new ProtobufTranscoder();

        Item? back = reader.Deserialize<Item>(item);

        Assert.Equal(Samples.Tree(), back);
    }

    [Fact]
    public void Deserialize_ContractNeverSeenByAFreshTranscoder_IsRefusedNamingTheType()
    {
        CacheItem item = _transcoder.Serialize(Samples.Tree());
        var reader = new ProtobufTranscoder();

        TranscoderException e = Assert.Throws<TranscoderException>(() => reader.Deserialize(item));

        Assert.StartsWith("The item under flags 0xC541 names type hash 0x8FD098B4, which this transcoder does not know; types are never loaded", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_KnownTypesOption_ResolvesTheRootsSubtypesInAFreshTranscoder()
    {
        CacheItem item = _transcoder.Serialize(Samples.Tree());
        var reader = new ProtobufTranscoder(new ProtobufTranscoderOptions { KnownTypes = { typeof(Item) } });

        Assert.Equal(Samples.Tree(), reader.Deserialize(item));
    }

    [Fact]
    public void Deserialize_ContractReadAsAnUnrelatedContract_ThrowsWrongType()
    {
        CacheItem item = _transcoder.Serialize(new Item { Name = "x" });

        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<TitledHolder>(item));

        Assert.Equal(0xC541u, e.Flags);
    }

    [Fact]
    public void Serialize_UndeclaredSubtype_ThrowsNamingTheFix()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new UndeclaredFolder { Name = "x" }));

        Assert.Contains("UndeclaredFolder", e.Message, StringComparison.Ordinal);
        Assert.Contains("ProtoInclude", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_CollectionSubclassWithFallbackOff_ThrowsNamingTheMember()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new TitledList { 1, 2 }));

        Assert.Contains("TitledList", e.Message, StringComparison.Ordinal);
        Assert.Contains("Title", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_CollectionSubclassAllowlistedForTheFallback_RoundTripsThroughBinaryFormatter()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { BinaryFormatterFallbackTypes = { typeof(TitledList) } });
        var list = new TitledList { 1, 2, 3 };
        list.Title = "three";

        CacheItem item = transcoder.Serialize(list);
        TitledList back = Assert.IsType<TitledList>(transcoder.Deserialize(item));

        Assert.Equal(0xC542u, item.Flags);
        Assert.Equal("three", back.Title);
        Assert.Equal([1, 2, 3], back);
    }

    [Fact]
    public void Serialize_ListOfContracts_RoundTripsThroughProtobufNet()
    {
        List<Item> list = [new Item { Name = "a" }, new Folder { Name = "b", Children = [] }];

        CacheItem item = _transcoder.Serialize(list);
        List<Item>? back = _transcoder.Deserialize<List<Item>>(item);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(list, back);
    }

    [Fact]
    public void Serialize_SharedModelConfiguredForAnUnannotatedType_UsesTheModelEntry()
    {
        RuntimeTypeModel model = ProtobufTranscoder.CreateModel();
        model.Add(typeof(Plain), applyDefaultBehaviour: false).Add(nameof(Plain.Id), nameof(Plain.Label));
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        CacheItem item = transcoder.Serialize(new Plain { Id = 7, Label = "seven" });
        Plain? back = transcoder.Deserialize<Plain>(item);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(7, back!.Id);
        Assert.Equal("seven", back.Label);
    }

    [Fact]
    public void Serialize_Compressed_ContractRoundTrips()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.Brotli, CompressionThreshold = 16 });
        SharedFolder tree = Samples.Tree() with { Name = string.Concat(Enumerable.Repeat("compressible ", 40)) };

        CacheItem item = transcoder.Serialize(tree);

        Assert.Equal(0xC541u | 0x0080u, item.Flags);
        Assert.Equal(tree, transcoder.Deserialize(item));
    }

    public sealed class Plain
    {
        public int Id { get; set; }

        public string? Label { get; set; }
    }

    [ProtoContract]
    public sealed class TitledHolder
    {
        [ProtoMember(1)]
        public string? Title { get; set; }
    }
}
