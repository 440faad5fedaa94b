using System.Text;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>Crafted object payloads naming types the transcoder does not know: refused, and nothing is loaded or created.</summary>
public class UnknownTypePayloadTests
{
    private static CacheItem Named(uint flags, string name, params byte[] body)
    {
        byte[] nameBytes = Encoding.UTF8.GetBytes(name);
        Assert.True(nameBytes.Length < 8192, "a key of at most two varint bytes keeps the crafting simple");
        int key = nameBytes.Length << 1;
        byte[] varint = key < 0x80 ? [(byte)key] : [(byte)(key | 0x80), (byte)(key >> 7)];
        return TranscoderTestHelpers.Item(flags, [.. varint, .. nameBytes, 0x01, 0x02, 0x03, 0x04, .. body]); // then a 4-byte fingerprint
    }

    [Theory]
    [InlineData("System.Diagnostics.Process")]
    [InlineData("System.Diagnostics.Process, System.Diagnostics.Process")]
    [InlineData("Some.Unknown.Type")]
    [InlineData("CacheSerializer.Tests.Transcoding.UnknownTypePayloadTests+Canary")]
    public void Deserialize_PayloadNamingUnknownType_IsRefusedAndNothingIsCreated(string name)
    {
        Canary.Created = 0;
        var transcoder = new ProtobufTranscoder();

        TranscoderException e = Assert.Throws<TranscoderException>(() => transcoder.Deserialize(Named(0xC540, name, 0x0A, 0x00)));

        Assert.Equal($"The item under flags 0xC540 names type '{name}', which this transcoder does not know; types are never loaded by a name from a payload. "
            + "Read it with Deserialize<T> of that type (or of its base contract), or add the type to ProtobufTranscoderOptions.KnownTypes or TypeAliases.", e.Message);
        Assert.Equal(0, Canary.Created);
    }

    [Fact]
    public void DeserializeOfObject_PayloadNamingProcess_DoesNotLoadItsAssembly()
    {
        var transcoder = new ProtobufTranscoder();
        const string Assembly = "System.Diagnostics.Process";
        bool loadedBefore = AppDomain.CurrentDomain.GetAssemblies().Any(a => a.GetName().Name == Assembly);

        Assert.Throws<TranscoderException>(() => transcoder.Deserialize<object>(Named(0xC540, "System.Diagnostics.Process", 0x0A, 0x00)));

        // Only meaningful when the test host had not loaded it already; then it must still not be loaded.
        if (!loadedBefore)
        {
            Assert.DoesNotContain(AppDomain.CurrentDomain.GetAssemblies(), a => a.GetName().Name == Assembly);
        }
    }

    [Theory]
    [InlineData(new byte[] { })]
    [InlineData(new byte[] { 0x80 })]
    [InlineData(new byte[] { 0x00 })]
    [InlineData(new byte[] { 0x14, 0x41 })]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 })]
    [InlineData(new byte[] { 0x82, 0x10 })]
    [InlineData(new byte[] { 0x04, 0xC3, 0x28 })]
    [InlineData(new byte[] { 0x81, 0x80, 0x10 })]
    public void Deserialize_MalformedTypeHeader_ThrowsTranscoderException(byte[] payload)
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => new ProtobufTranscoder().Deserialize(TranscoderTestHelpers.Item(0xC540, payload)));

        Assert.Equal(0xC540u, e.Flags);
    }

    /// <summary>Would count its constructions if anything ever created it from a payload.</summary>
    public sealed class Canary
    {
        public Canary() => Created++;

        public static int Created { get; set; }
    }
}
