using CacheSerializer.Memcached.Internal.Hybrid;

namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>The HybridCache entry's envelope, byte for byte as docs/format.md ("HybridCache entries") states it.</summary>
public sealed class HybridEnvelopeTests
{
    private static readonly byte[] Golden =
    [
        1, 0,                                           // version, kind (the transcoder's item)
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // creation sequence
        2, 0,                                           // tag count
        1, 0, (byte)'a',                                // "a"
        2, 0, (byte)'b', (byte)'c',                     // "bc"
        0xDE, 0xC0, 0, 0,                               // the value's flags
        9, 8,                                           // the value's bytes
    ];

    [Fact]
    public void ToBytes_TwoTags_IsTheDocumentedLayout()
    {
        var envelope = new HybridEnvelope(0x0102030405060708, ["a", "bc"], fromSerializer: false, 0xC0DE, new ArraySegment<byte>([9, 8]));

        Assert.Equal(Golden, envelope.ToBytes());
    }

    [Fact]
    public void TryRead_DocumentedLayout_ReadsEveryField()
    {
        Assert.True(HybridEnvelope.TryRead(Golden, out HybridEnvelope envelope));

        Assert.Equal(0x0102030405060708UL, envelope.Creation);
        Assert.Equal(["a", "bc"], envelope.Tags);
        Assert.False(envelope.FromSerializer);
        Assert.Equal(0xC0DEu, envelope.Flags);
        Assert.Equal([9, 8], envelope.Value.ToArray());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(11)]
    [InlineData(14)]
    [InlineData(20)]
    public void TryRead_Truncated_False(int length) =>
        Assert.False(HybridEnvelope.TryRead(new ArraySegment<byte>(Golden, 0, length), out _));

    [Theory]
    [InlineData(0, 2)]
    [InlineData(1, 2)]
    public void TryRead_OtherVersionOrKind_False(int index, byte value)
    {
        byte[] changed = [.. Golden];
        changed[index] = value;

        Assert.False(HybridEnvelope.TryRead(changed, out _));
    }
}
