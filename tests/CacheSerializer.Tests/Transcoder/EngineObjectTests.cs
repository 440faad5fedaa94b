using CacheSerializer.Protobuf;
using CacheSerializer.Tests.Transcoder.Contracts;

namespace CacheSerializer.Tests.Transcoder;

public class EngineObjectTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    [Fact]
    public void Serialize_Contract_UsesTheEngineFlagAndNamesTheRuntimeType()
    {
        var item = _transcoder.Serialize(EngineSamples.Tree());

        Assert.Equal(0xC541u, item.Flags);
        var payload = System.Text.Encoding.UTF8.GetString(item.Data.AsSpan());
        Assert.Contains("CacheSerializer.Tests.Transcoder.Contracts.SharedFolder", payload, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_ThreeLevelContract_ReturnsTheDeepestTypeWithEveryLevel()
    {
        var tree = EngineSamples.Tree();
        var item = _transcoder.Serialize(tree);

        var untyped = _transcoder.Deserialize(item);
        var asRoot = _transcoder.Deserialize<Item>(item);
        var asMiddle = _transcoder.Deserialize<Folder>(item);

        Assert.Equal(tree, Assert.IsType<SharedFolder>(untyped));
        Assert.Equal(tree, Assert.IsType<SharedFolder>(asRoot));
        Assert.Equal(tree, Assert.IsType<SharedFolder>(asMiddle));
    }

    [Fact]
    public void Deserialize_NullAndEmptyListsInAContract_ComeBackAsTheyWere()
    {
        var item = _transcoder.Serialize(EngineSamples.Tree());

        var back = (SharedFolder)_transcoder.Deserialize(item)!;

        Assert.NotNull(back.Tags);
        Assert.Empty(back.Tags);
        Assert.Null(back.Children![1].Tags);
        Assert.Empty(((Folder)back.Children[1]).Children!);
    }

    [Fact]
    public void Deserialize_SubtypeInAFreshTranscoderReadAsItsRoot_ResolvesThroughTheRootsIncludes()
    {
        var item = _transcoder.Serialize(EngineSamples.Tree());
        var reader = new ProtobufTranscoder();

        var back = reader.Deserialize<Item>(item);

        Assert.Equal(EngineSamples.Tree(), back);
    }

    [Fact]
    public void Deserialize_ContractNeverSeenByAFreshTranscoder_IsRefusedNamingTheType()
    {
        var item = _transcoder.Serialize(EngineSamples.Tree());
        var reader = new ProtobufTranscoder();

        var e = Assert.Throws<TranscoderException>(() => reader.Deserialize(item));

        Assert.Contains("names type 'CacheSerializer.Tests.Transcoder.Contracts.SharedFolder', which this transcoder does not know", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_KnownTypesOption_ResolvesTheRootsSubtypesInAFreshTranscoder()
    {
        var item = _transcoder.Serialize(EngineSamples.Tree());
        var reader = new ProtobufTranscoder(new ProtobufTranscoderOptions { KnownTypes = { typeof(Item) } });

        Assert.Equal(EngineSamples.Tree(), reader.Deserialize(item));
    }

    [Fact]
    public void Deserialize_ContractReadAsAnUnrelatedContract_ThrowsWrongType()
    {
        var item = _transcoder.Serialize(new Item { Name = "x" });

        var e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize<TitledHolder>(item));

        Assert.Equal(0xC541u, e.Flags);
    }

    [Fact]
    public void Serialize_UndeclaredSubtype_ThrowsNamingTheFix()
    {
        var e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new UndeclaredFolder { Name = "x" }));

        Assert.Contains("UndeclaredFolder", e.Message, StringComparison.Ordinal);
        Assert.Contains("ProtoInclude", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_CollectionSubclassWithFallbackOff_ThrowsNamingTheMember()
    {
        var e = Assert.Throws<TranscoderException>(() => _transcoder.Serialize(new TitledList { 1, 2 }));

        Assert.Contains("TitledList", e.Message, StringComparison.Ordinal);
        Assert.Contains("Title", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_CollectionSubclassAllowlistedForTheFallback_RoundTripsThroughBinaryFormatter()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { BinaryFormatterFallbackTypes = { typeof(TitledList) } });
        var list = new TitledList { 1, 2, 3 };
        list.Title = "three";

        var item = transcoder.Serialize(list);
        var back = Assert.IsType<TitledList>(transcoder.Deserialize(item));

        Assert.Equal(0xC542u, item.Flags);
        Assert.Equal("three", back.Title);
        Assert.Equal([1, 2, 3], back);
    }

    [Fact]
    public void Serialize_ListOfContracts_RoundTripsThroughTheEngine()
    {
        List<Item> list = [new Item { Name = "a" }, new Folder { Name = "b", Children = [] }];

        var item = _transcoder.Serialize(list);
        var back = _transcoder.Deserialize<List<Item>>(item);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(list, back);
    }

    [Fact]
    public void Serialize_SharedModelConfiguredForAnUnannotatedType_UsesTheModelEntry()
    {
        var model = new ProtoModel().Add(typeof(Plain), nameof(Plain.Id), nameof(Plain.Label));
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        var item = transcoder.Serialize(new Plain { Id = 7, Label = "seven" });
        var back = transcoder.Deserialize<Plain>(item);

        Assert.Equal(0xC541u, item.Flags);
        Assert.Equal(7, back!.Id);
        Assert.Equal("seven", back.Label);
    }

    [Fact]
    public void Serialize_Compressed_ContractRoundTrips()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.Brotli, CompressionThreshold = 16 });
        var tree = EngineSamples.Tree() with { Name = string.Concat(Enumerable.Repeat("compressible ", 40)) };

        var item = transcoder.Serialize(tree);

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
