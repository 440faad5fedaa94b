namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// Flags and bytes of every type shared with EnyimMemcachedCore's DefaultTranscoder. The vectors are data derived from
/// its source (cnblogs/EnyimMemcachedCore, src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs): flag
/// <c>0x0100 | (int)TypeCode</c>, payload <c>BitConverter.GetBytes(value)</c> (little-endian on every platform .NET
/// runs memcached clients on), DateTime as <c>BitConverter.GetBytes(value.ToBinary())</c>, strings as
/// <c>Encoding.UTF8.GetBytes</c>, byte[] under RawDataFlag 0xFA52, null under TypeCode.DBNull (0x0102) with no bytes.
/// </summary>
public class DefaultTranscoderCompatibilityTests
{
    private readonly ProtobufTranscoder _transcoder = new();

    public static IEnumerable<object[]> Vectors =>
    [
        [true, 0x0103u, "01"],
        [false, 0x0103u, "00"],
        ['A', 0x0104u, "4100"],
        ['\u20AC', 0x0104u, "ac20"],
        [(sbyte)-2, 0x0105u, "fe"],
        [(byte)200, 0x0106u, "c8"],
        [(short)-2, 0x0107u, "feff"],
        [(ushort)0x1234, 0x0108u, "3412"],
        [0x01020304, 0x0109u, "04030201"],
        [-1, 0x0109u, "ffffffff"],
        [0xDEADBEEFu, 0x010Au, "efbeadde"],
        [0x0102030405060708L, 0x010Bu, "0807060504030201"],
        [ulong.MaxValue, 0x010Cu, "ffffffffffffffff"],
        [1.5f, 0x010Du, "0000c03f"],
        [-0.0f, 0x010Du, "00000080"],
        [1.5d, 0x010Eu, "000000000000f83f"],
        [double.NaN, 0x010Eu, "000000000000f8ff"],
        // ToBinary of a Utc DateTime: ticks (630822816000000000 = 0x08C1220247E44000) with bit 62 set (Kind = Utc).
        [new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc), 0x0110u, "0040e4470222c148"],
        // Unspecified: the ticks as they are.
        [new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Unspecified), 0x0110u, "0040e4470222c108"],
        ["abc", 0x0112u, "616263"],
        ["\u00E9\u6771\U0001F600", 0x0112u, "c3a9e69db1f09f9880"],
        [new byte[] { 1, 2, 3 }, 0xFA52u, "010203"],
    ];

    [Theory]
    [MemberData(nameof(Vectors))]
    public void Serialize_SharedType_WritesDefaultTranscoderFlagsAndBytes(object value, uint flags, string hex)
    {
        CacheItem item = _transcoder.Serialize(value);

        Assert.Equal(flags, item.Flags);
        Assert.Equal(hex, Convert.ToHexStringLower(item.Bytes()));
    }

    [Theory]
    [MemberData(nameof(Vectors))]
    public void Serialize_SharedTypeUnderDefaultCompressionFromZeroBytes_WritesDefaultTranscoderFlagsAndBytes(object value, uint flags, string hex)
    {
        // Compression is on by default (issue 24), for object payloads only: with the threshold at 0 every shared type
        // is offered to it, and each keeps DefaultTranscoder's flags and bytes.
        CacheItem item = new ProtobufTranscoder(new ProtobufTranscoderOptions { CompressionThreshold = 0 }).Serialize(value);

        Assert.Equal(flags, item.Flags);
        Assert.Equal(hex, Convert.ToHexStringLower(item.Bytes()));
    }

    [Theory]
    [MemberData(nameof(Vectors))]
    public void Deserialize_DefaultTranscoderItem_ReturnsValue(object value, uint flags, string hex)
    {
        CacheItem item = TranscoderTestHelpers.Item(flags, Convert.FromHexString(hex));

        ValueAssert.Identical(value, _transcoder.Deserialize(item));
    }

    [Fact]
    public void Serialize_Null_WritesDefaultTranscoderDbNullMarker()
    {
        CacheItem item = _transcoder.Serialize(null);

        Assert.Equal(0x0102u, item.Flags);
        Assert.Empty(item.Bytes());
    }

    [Fact]
    public void Deserialize_FlagZero_ReadsUtf8String()
    {
        // memcached's incr on a counter set by another client, or a plain set with flags 0: DefaultTranscoder reads
        // these as strings, and so do we.
        CacheItem item = TranscoderTestHelpers.Item(0x0000, "12345"u8.ToArray());

        Assert.Equal("12345", _transcoder.Deserialize(item));
        Assert.Equal("12345", _transcoder.Deserialize<string>(item));
    }

    [Fact]
    public void Deserialize_FlagZeroEmpty_ReturnsEmptyString()
    {
        // DefaultTranscoder returns null here (its pre-2.6 null marker); an empty value is an empty string to us.
        Assert.Equal(string.Empty, _transcoder.Deserialize(TranscoderTestHelpers.Item(0x0000)));
    }

    [Fact]
    public void Serialize_OwnTypes_NeverUseATypeCodeLowByteSoDefaultTranscoderRejectsThem()
    {
        object[] own = [1.5m, Guid.Empty, TimeSpan.Zero, DateTimeOffset.UnixEpoch, DateOnly.MinValue, TimeOnly.MinValue, Half.One, Int128.One, UInt128.One];
        foreach (object value in own)
        {
            uint flags = _transcoder.Serialize(value).Flags;

            Assert.True((flags & 0xFF) > 18, $"{value.GetType()}: 0x{flags:X4}");
            Assert.NotEqual(0xFA52u, flags);
        }
    }
}
