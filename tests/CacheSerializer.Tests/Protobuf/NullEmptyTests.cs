using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

public class NullEmptyTests
{
    private readonly ProtoModel _model = new();

    [Fact]
    public void RoundTrip_NullMembers_ComeBackNull()
    {
        var back = RoundTrip(new NullEmptyPoco());

        Assert.Null(back.Ints);
        Assert.Null(back.Words);
        Assert.Null(back.Text);
        Assert.Null(back.Map);
        Assert.Null(back.Set);
        Assert.Null(back.Blob);
        Assert.Null(back.Inners);
        Assert.Null(back.HighNumbered);
    }

    [Fact]
    public void RoundTrip_EmptyMembers_ComeBackEmpty()
    {
        var back = RoundTrip(new NullEmptyPoco { Ints = [], Words = [], Text = "", Map = [], Set = [], Blob = [], Inners = [], HighNumbered = [] });

        Assert.Equal([], back.Ints!);
        Assert.Equal([], back.Words!);
        Assert.Equal(string.Empty, back.Text);
        Assert.Equal([], back.Map!);
        Assert.Equal([], back.Set!);
        Assert.Equal([], back.Blob!);
        Assert.Equal([], back.Inners!);
        Assert.Equal([], back.HighNumbered!);
    }

    [Fact]
    public void RoundTrip_FilledMembers_ComeBackEqual()
    {
        var back = RoundTrip(new NullEmptyPoco { Ints = [0, 1], Words = ["", "a"], Map = new() { [""] = 0 }, Set = [5], Inners = [new InnerPoco()] });

        Assert.Equal([0, 1], back.Ints!);
        Assert.Equal(["", "a"], back.Words!);
        Assert.Equal(new Dictionary<string, int> { [""] = 0 }, back.Map);
        Assert.Equal([5L], back.Set!);
        Assert.Equal([new InnerPoco()], back.Inners!);
    }

    [Fact]
    public void Serialize_EmptyCollection_CostsTwoBytesBelowField16()
    {
        Assert.Equal(2, _model.Serialize(new NullEmptyPoco { Ints = [] }).Length);
        Assert.Equal(4, _model.Serialize(new NullEmptyPoco { HighNumbered = [] }).Length);
        Assert.Empty(_model.Serialize(new NullEmptyPoco()));
    }

    [Fact]
    public void Serialize_NullElementInList_ThrowsNamingMember()
    {
        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(new NullEmptyPoco { Words = ["a", null!] }));

        Assert.Contains("CacheSerializer.Tests.Protobuf.NullEmptyPoco.Words contains a null element", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_NullRoot_ThrowsArgumentNull()
    {
        Assert.Throws<ArgumentNullException>(() => _model.Serialize<NullEmptyPoco>(null!));
        Assert.Throws<ArgumentNullException>(() => _model.Serialize<List<int>>(null!));
        Assert.Throws<ArgumentNullException>(() => _model.Serialize<int?>(null));
    }

    [Fact]
    public void RoundTrip_AllDefaultContract_IsAnInstance()
    {
        Assert.NotNull(_model.Deserialize<NullEmptyPoco>(_model.Serialize(new NullEmptyPoco())));
        Assert.NotNull(_model.Deserialize<NullEmptyPoco>(ReadOnlyMemory<byte>.Empty));
    }

    [Fact]
    public void RoundTrip_EmptyListAndArrayAsRoot_ComeBackEmpty()
    {
        Assert.Equal([], _model.Deserialize<List<int>>(_model.Serialize(new List<int>())));
        Assert.Equal([], _model.Deserialize<string[]>(_model.Serialize(Array.Empty<string>())));
        Assert.Equal([], _model.Deserialize<Dictionary<string, int>>(_model.Serialize(new Dictionary<string, int>())));
    }

    [Fact]
    public void RoundTrip_FilledListAndArrayAsRoot_ComeBackEqual()
    {
        Assert.Equal([1, 2], _model.Deserialize<List<int>>(_model.Serialize(new List<int> { 1, 2 })));
        Assert.Equal(["a", ""], _model.Deserialize<string[]>(_model.Serialize(new[] { "a", "" })));
        Assert.Equal([new InnerPoco { Number = 1 }], _model.Deserialize<InnerPoco[]>(_model.Serialize(new[] { new InnerPoco { Number = 1 } })));
    }

    [Fact]
    public void Deserialize_RootListFromEmptyPayload_IsNull()
    {
        // No field at all: only a null list writes that, and the engine never writes a null root, so this is another writer's data.
        Assert.Null(_model.Deserialize<List<int>>(ReadOnlyMemory<byte>.Empty));
    }

    [Fact]
    public void Serialize_NullElementInRootList_Throws()
    {
        Assert.Throws<ProtoException>(() => _model.Serialize(new List<string> { "a", null! }));
    }

    private T RoundTrip<T>(T value) => _model.Deserialize<T>(_model.Serialize(value));
}
