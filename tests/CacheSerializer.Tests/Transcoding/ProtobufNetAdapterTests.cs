using System.Reflection;
using CacheSerializer.Tests.Transcoding.Contracts;
using CacheSerializer.Transcoding;
using CacheSerializer.Transcoding.ProtobufNet;
using ProtoBuf.Meta;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// What the adapter relies on in protobuf-net, pinned: if an upgrade changes any of it, these fail before a cache
/// silently changes its bytes.
/// </summary>
public class ProtobufNetAdapterTests
{
    [Fact]
    public void ProtobufNet_Version_IsTheOneTheNullWrappingWasVerifiedOn()
    {
        // ValueMember.NullWrappedCollection is internal: re-verify the tests below, and docs/protobuf-format.md, on an upgrade.
        string version = typeof(RuntimeTypeModel).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion;

        Assert.StartsWith("3.4.40", version, StringComparison.Ordinal);
    }

    [Fact]
    public void NullWrappedCollection_InternalProperty_IsWhatProtobufNetSetsFromTheAttribute()
    {
        PropertyInfo? property = typeof(ValueMember).GetProperty("NullWrappedCollection", BindingFlags.Instance | BindingFlags.NonPublic);
        var model = RuntimeTypeModel.Create();

        Assert.NotNull(property);
        Assert.Equal(typeof(bool), property.PropertyType);
        Assert.True(ProtobufNetAdapter.NullWrappingAvailable);
        Assert.Equal(true, property.GetValue(model[typeof(Wrapped)][1]));
        Assert.Equal(false, property.GetValue(model[typeof(Unwrapped)][1]));
    }

    [Fact]
    public void CreateModel_NullWrapped_SetsThePropertyOnEveryCollectionMemberOnly()
    {
        PropertyInfo property = typeof(ValueMember).GetProperty("NullWrappedCollection", BindingFlags.Instance | BindingFlags.NonPublic)!;
        RuntimeTypeModel model = ProtobufTranscoder.CreateModel();

        IEnumerable<(string Name, bool)> wrapped = model[typeof(Unwrapped)].GetFields().Select(member => (member.Name, (bool)property.GetValue(member)!));
        IEnumerable<bool> scalars = model[typeof(Formats)].GetFields().Select(member => (bool)property.GetValue(member)!);

        Assert.Equal([("Names", true), ("Numbers", true), ("Packed", true), ("Counts", true), ("Ids", true), ("Points", true)], wrapped);
        Assert.All(scalars, Assert.False);
    }

    [Fact]
    public void CreateModel_Settings_AreTheDocumentedOnes()
    {
        RuntimeTypeModel model = ProtobufTranscoder.CreateModel();
        RuntimeTypeModel plain = ProtobufTranscoder.CreateModel(nullWrappedCollections: false);
        PropertyInfo property = typeof(ValueMember).GetProperty("NullWrappedCollection", BindingFlags.Instance | BindingFlags.NonPublic)!;

        // Parseable types are written by the transcoder, type by type (string surrogates), so DateTimeOffset keeps its own.
        Assert.False(model.AllowParseableTypes);
        Assert.True(model.IncludeDateTimeKind);
        Assert.True(model.AutoCompile);
        Assert.True(model.IsDefined(typeof(DateTimeOffset)));
        Assert.Equal(false, property.GetValue(plain[typeof(Unwrapped)][1]));
        Assert.NotSame(model, ProtobufTranscoder.CreateModel());
    }

    [Fact]
    public void NullWrappingUnavailable_Message_NamesTheVersionAndBothWaysOut()
    {
        TranscoderException e = CacheSerializer.Transcoding.ThrowHelper.NullWrappingUnavailable(new Version(3, 9, 0, 0));

        Assert.Equal(
            "The protobuf-net in this application (3.9.0.0) does not let CacheSerializer apply its null-wrapped collection layout "
            + "([NullWrappedCollection]) at model-build time, which it does on protobuf-net 3.4.40 through ValueMember.NullWrappedCollection. "
            + "Use protobuf-net 3.4.40, or set ProtobufTranscoderOptions.NullWrappedCollections = false (null and empty collections are then "
            + "written alike, as plain protobuf-net does).",
            e.Message);
    }

    [Fact]
    public void Constructor_ApplicationModel_IsNotChangedBeyondTheTypesProtobufNetAdds()
    {
        var model = RuntimeTypeModel.Create();
        PropertyInfo property = typeof(ValueMember).GetProperty("NullWrappedCollection", BindingFlags.Instance | BindingFlags.NonPublic)!;
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = model });

        transcoder.Serialize(new Unwrapped { Names = [] });

        Assert.False(model.AllowParseableTypes);
        Assert.False(model.IncludeDateTimeKind);
        Assert.False(model.IsDefined(typeof(DateTimeOffset)));
        Assert.Equal(false, property.GetValue(model[typeof(Unwrapped)][1]));
    }
}
