using System.Runtime.Serialization;
using System.Runtime.Serialization.Formatters.Binary;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The fallback runs for real: the test project references System.Runtime.Serialization.Formatters and sets
/// EnableUnsafeBinaryFormatterSerialization.
/// </summary>
public class BinaryFormatterFallbackTests
{
    private static ProtobufTranscoder WithFallback(params Type[] allowed)
    {
        var options = new ProtobufTranscoderOptions();
        foreach (Type type in allowed)
        {
            options.BinaryFormatterFallbackTypes.Add(type);
        }

        return new ProtobufTranscoder(options);
    }

    /// <summary>Writes a BinaryFormatter stream of <paramref name="value"/> in which its type is renamed.</summary>
    private static CacheItem Crafted(object value, string typeName, string assemblyName)
    {
        using var stream = new MemoryStream();
        new BinaryFormatter { Binder = new RenamingBinder(value.GetType(), typeName, assemblyName) }.Serialize(stream, value);
        return new CacheItem(0xC542, new ArraySegment<byte>(stream.ToArray()));
    }

    [Fact]
    public void Serialize_FallbackOff_ThrowsNamingTypeAndWaysOut()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Serialize(new Legacy { Name = "x" }));

        Assert.Equal(typeof(Legacy), e.DataType);
        Assert.StartsWith("Cannot store a CacheSerializer.Tests.Transcoding.BinaryFormatterFallbackTests+Legacy: protobuf-net has no contract for it. Mark it [ProtoContract] ", e.Message, StringComparison.Ordinal);
        Assert.Contains("[ProtoContract]", e.Message, StringComparison.Ordinal);
        Assert.Contains("surrogate", e.Message, StringComparison.Ordinal);
        Assert.Contains("ProtobufTranscoderOptions.Codecs", e.Message, StringComparison.Ordinal);
        Assert.Contains("BinaryFormatterFallbackTypes", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_UnstorableType_FailsAgainFromTheCache()
    {
        var transcoder = new ProtobufTranscoder();

        TranscoderException first = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new Legacy()));
        TranscoderException second = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new Legacy()));

        Assert.NotSame(first, second);
        Assert.Equal(first.Message, second.Message);
    }

    [Fact]
    public void RoundTrip_AllowlistedType_ReturnsEqualObject()
    {
        ProtobufTranscoder transcoder = WithFallback(typeof(Legacy));

        CacheItem item = transcoder.Serialize(new Legacy { Name = "old", Count = 3 });

        Assert.Equal(0xC542u, item.Flags);
        Legacy back = Assert.IsType<Legacy>(transcoder.Deserialize(item));
        Assert.Equal("old", back.Name);
        Assert.Equal(3, back.Count);
        Assert.Equal("old", transcoder.Deserialize<Legacy>(item)!.Name);
    }

    [Fact]
    public void Serialize_FallbackOnButTypeNotAllowlisted_Throws()
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => WithFallback(typeof(Legacy)).Serialize(new Canary()));

        Assert.Equal(typeof(Canary), e.DataType);
    }

    [Fact]
    public void Serialize_AllowlistedTypeHoldingAnUnlistedType_ThrowsNamingIt()
    {
        ProtobufTranscoder transcoder = WithFallback(typeof(Holder));

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Serialize(new Holder { Inner = new Legacy() }));

        Assert.Contains("'CacheSerializer.Tests.Transcoding.BinaryFormatterFallbackTests+Legacy'", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_PayloadNamingProcess_IsRefusedByTheBinder()
    {
        CacheItem item = Crafted(new Legacy(), "System.Diagnostics.Process", "System.Diagnostics.Process, Version=10.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a");

        TranscoderException e = Assert.Throws<TranscoderException>(() => WithFallback(typeof(Legacy)).Deserialize(item));

        Assert.StartsWith("The BinaryFormatter item under flags 0xC542 names 'System.Diagnostics.Process'", e.Message, StringComparison.Ordinal);
        Assert.EndsWith("it was refused before anything of it was created.", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_PayloadNamingUnlistedType_CreatesNothing()
    {
        ProtobufTranscoder transcoder = WithFallback(typeof(Legacy));
        Canary.Created = 0;
        CacheItem item = Crafted(new Legacy(), typeof(Canary).FullName!, typeof(Canary).Assembly.FullName!);

        Assert.Throws<TranscoderException>(() => transcoder.Deserialize(item));

        Assert.Equal(0, Canary.Created);
    }

    [Fact]
    public void Deserialize_FallbackOff_RefusesBinaryFormatterItemsWithoutRunningIt()
    {
        CacheItem item = WithFallback(typeof(Legacy)).Serialize(new Legacy { Name = "x" });

        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(item));

        Assert.Equal(0xC542u, e.Flags);
        Assert.Contains("BinaryFormatter fallback, which is off", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_GarbageUnderFallbackFlag_ThrowsTranscoderException()
    {
        Assert.Throws<TranscoderException>(() => WithFallback(typeof(Legacy)).Deserialize(TranscoderTestHelpers.Item(0xC542, 1, 2, 3)));
    }

    [Fact]
    public void Serialize_AllowlistedNativeType_StillUsesNativeCodec()
    {
        Assert.Equal(0x0109u, WithFallback(typeof(int)).Serialize(5).Flags);
    }

    [Serializable]
    public sealed class Legacy
    {
        public string? Name { get; set; }

        public int Count { get; set; }
    }

    [Serializable]
    public sealed class Holder
    {
        public Legacy? Inner { get; set; }
    }

    [Serializable]
    public sealed class Canary : ISerializable
    {
        public Canary()
        {
        }

        private Canary(SerializationInfo info, StreamingContext context) => Created++;

        public static int Created { get; set; }

        public void GetObjectData(SerializationInfo info, StreamingContext context)
        {
        }
    }

    private sealed class RenamingBinder(Type type, string typeName, string assemblyName) : SerializationBinder
    {
        public override void BindToName(Type serializedType, out string? assembly, out string? name)
        {
            (assembly, name) = serializedType == type ? (assemblyName, typeName) : (null, null);
        }

        public override Type BindToType(string assemblyName, string typeName) => throw new NotSupportedException();
    }
}
