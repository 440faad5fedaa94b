using FsCheck;
using FsCheck.Fluent;

namespace CacheSerializer.Tests.Transcoding;

public class MalformedItemTests
{
    private static readonly uint[] FixedSizeFlags =
        [0x0103, 0x0104, 0x0105, 0x0106, 0x0107, 0x0108, 0x0109, 0x010A, 0x010B, 0x010C, 0x010D, 0x010E, 0x0110, 0xC520, 0xC521, 0xC522, 0xC523, 0xC524, 0xC525, 0xC526, 0xC527, 0xC528];

    private static readonly uint[] OwnedFlags =
        [.. FixedSizeFlags, 0x0000, 0x0102, 0x0112, 0xFA52, 0xC540, 0xC541, 0xC542, 0x0192, 0xFAD2, 0xC5C0, 0x0101, 0x010F, 0x0111, 0x7777];

    private readonly ProtobufTranscoder _transcoder = new();

    public static IEnumerable<object[]> FixedSizeFlagCases => FixedSizeFlags.Select(flags => new object[] { flags });

    [Theory]
    [MemberData(nameof(FixedSizeFlagCases))]
    public void Deserialize_FixedSizeFlagWithWrongLength_ThrowsNamingLengths(uint flags)
    {
        int size = _transcoder.Serialize(ValueFor(flags)).Data.Count;

        foreach (int length in new[] { 0, size - 1, size + 1 }.Where(n => n >= 0).Distinct())
        {
            TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize(TranscoderTestHelpers.Item(flags, new byte[length])));

            Assert.Equal(flags, e.Flags);
            Assert.Contains($"hold exactly {size} bytes, this item has {length}", e.Message, StringComparison.Ordinal);
        }
    }

    public static IEnumerable<object[]> InvalidPayloads =>
    [
        [0x0103u, new byte[] { 2 }],
        [0x0110u, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F }],
        [0x0112u, new byte[] { 0xC3, 0x28 }],
        [0x0000u, new byte[] { 0xFF }],
        [0x0102u, new byte[] { 0 }],
        [0xC520u, new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1D, 0 }],
        [0xC520u, new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }],
        [0xC523u, new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 0x85, 0x03 }],
        [0xC523u, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0 }],
        [0xC524u, new byte[] { 0xFF, 0xFF, 0xFF, 0x7F }],
        [0xC525u, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F }],
        [0xC541u, new byte[] { 0x02, 0x41 }],
        [0x0111u, new byte[] { 1 }],
        [0xFFFFFFFFu, new byte[] { 1 }],
    ];

    [Theory]
    [MemberData(nameof(InvalidPayloads))]
    public void Deserialize_InvalidPayload_ThrowsTranscoderException(uint flags, byte[] payload)
    {
        TranscoderException e = Assert.Throws<TranscoderException>(() => _transcoder.Deserialize(TranscoderTestHelpers.Item(flags, payload)));

        Assert.Equal(flags, e.Flags);
    }

    [Fact]
    public void Deserialize_DefaultCacheItem_IsAnEmptyPayloadNotANullReference()
    {
        Assert.Equal(string.Empty, _transcoder.Deserialize(new CacheItem(0x0112, default)));
        Assert.Throws<TranscoderException>(() => _transcoder.Deserialize(new CacheItem(0x0109, default)));
    }

    [Fact]
    public void Deserialize_RandomBytesUnderEveryFlag_ReturnsOrThrowsTranscoderExceptionOnly()
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { BinaryFormatterFallbackTypes = { typeof(BinaryFormatterFallbackTests.Legacy) } });

        Prop.ForAll(
                Gen.Elements(OwnedFlags).ToArbitrary(),
                ArbMap.Default.ArbFor<byte[]>(),
                (flags, payload) =>
                {
                    try
                    {
                        transcoder.Deserialize(TranscoderTestHelpers.Item(flags, payload));
                        transcoder.Deserialize<Messages.Person>(TranscoderTestHelpers.Item(flags, payload));
                    }
                    catch (TranscoderException)
                    {
                    }
                })
            .QuickCheckThrowOnFailure();
    }

    private static object ValueFor(uint flags) => flags switch
    {
        0x0103 => true,
        0x0104 => 'c',
        0x0105 => (sbyte)1,
        0x0106 => (byte)1,
        0x0107 => (short)1,
        0x0108 => (ushort)1,
        0x0109 => 1,
        0x010A => 1u,
        0x010B => 1L,
        0x010C => 1UL,
        0x010D => 1f,
        0x010E => 1d,
        0x0110 => DateTime.UnixEpoch,
        0xC520 => 1m,
        0xC521 => Guid.Empty,
        0xC522 => TimeSpan.Zero,
        0xC523 => DateTimeOffset.UnixEpoch,
        0xC524 => DateOnly.MinValue,
        0xC525 => TimeOnly.MinValue,
        0xC526 => Half.One,
        0xC527 => Int128.One,
        0xC528 => UInt128.One,
        _ => throw new ArgumentOutOfRangeException(nameof(flags)),
    };
}
