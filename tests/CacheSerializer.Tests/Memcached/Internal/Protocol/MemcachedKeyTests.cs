using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

public class MemcachedKeyTests
{
    [Fact]
    public void Create_PrintableAscii_IsSentPlainWithPrefix()
    {
        var key = MemcachedKey.Create("app:", "user/42");
        byte[] utf8 = Encoding.UTF8.GetBytes("app:" + "user/42"); // what another client stores the key under
        byte[] written = new byte[MemcachedKey.MaxPlainLength];
        byte[] scratch = new byte[MemcachedKey.MaxPlainLength];

        Assert.False(key.IsBase64);
        Assert.Equal(utf8, key.Wire);
        Assert.Equal(utf8, key.Binary);
        Assert.Equal(utf8, written.AsSpan(0, key.WriteWire(written)).ToArray()); // what the client writes on the command line
        Assert.Equal(utf8, key.GetBinary(scratch).ToArray()); // what ketama hashes
        Assert.Equal(utf8.Length, key.WireLength);
    }

    [Theory]
    [InlineData("with space")]
    [InlineData("ключ")]
    [InlineData("tab\there")]
    [InlineData("line\r\nEND")]
    public void Create_NotPlain_IsBase64OfUtf8(string text)
    {
        var key = MemcachedKey.Create(string.Empty, text);

        Assert.True(key.IsBase64);
        Assert.Equal(Encoding.UTF8.GetBytes(text), key.Binary);
        Assert.Equal(Convert.ToBase64String(Encoding.UTF8.GetBytes(text)), Encoding.ASCII.GetString(key.Wire));
    }

    [Fact]
    public void Create_Plain250Bytes_IsSentPlain()
    {
        var key = MemcachedKey.Create(string.Empty, new string('a', 250));

        Assert.False(key.IsBase64);
        Assert.Equal(250, key.Wire.Length);
    }

    [Fact]
    public void Create_Plain251Bytes_IsHashedWithMarker()
    {
        var key = MemcachedKey.Create(string.Empty, new string('a', 251));

        Assert.True(key.IsBase64);
        Assert.Equal(33, key.Binary.Length);
        Assert.Equal(0xFF, key.Binary[0]);
        Assert.Equal(44, key.Wire.Length);
    }

    [Fact]
    public void Create_NonAscii186And187Bytes_Base64ThenHashed()
    {
        string at186 = new string('é', 93); // 2 UTF-8 bytes each
        string at188 = new string('é', 94);

        Assert.Equal(186, MemcachedKey.Create(string.Empty, at186).Binary.Length);
        Assert.Equal(248, MemcachedKey.Create(string.Empty, at186).Wire.Length);
        Assert.Equal(0xFF, MemcachedKey.Create(string.Empty, at188).Binary[0]);
    }

    [Fact]
    public void Create_DifferentLongKeys_GetDifferentHashes()
    {
        var a = MemcachedKey.Create(string.Empty, new string('a', 300) + "1");
        var b = MemcachedKey.Create(string.Empty, new string('a', 300) + "2");

        Assert.NotEqual(a.Binary, b.Binary);
    }

    [Fact]
    public void Create_EmptyKeyAndLoneSurrogate_AreHashedNotRejected()
    {
        var empty = MemcachedKey.Create(string.Empty, string.Empty);
        var surrogate = MemcachedKey.Create(string.Empty, "a\uD800b");
        var otherSurrogate = MemcachedKey.Create(string.Empty, "a\uDC00b");

        Assert.Equal(0xFF, empty.Binary[0]);
        Assert.Equal(0xFE, surrogate.Binary[0]);
        Assert.NotEqual(surrogate.Binary, otherSurrogate.Binary);
    }

    [Fact]
    public void Create_NullKey_ThrowsArgumentNull()
    {
        Assert.Throws<ArgumentNullException>(() => MemcachedKey.Create(string.Empty, null!));
    }

    [Fact]
    public void LeaseFor_PlainKey_MarkerAndStoredBytesInBase64PlacedByTheKey()
    {
        var key = MemcachedKey.Create("app:", "user/42");
        byte[] scratch = new byte[MemcachedKey.MaxPlainLength];

        MemcachedKey lease = key.LeaseFor();

        // 0xFC never occurs in UTF-8: no string is stored under it, so an EnyimMemcachedCore application never reads it.
        Assert.True(lease.IsBase64);
        Assert.Equal([0xFC, .. Encoding.UTF8.GetBytes("app:user/42")], lease.Binary);
        Assert.Equal(Convert.ToBase64String([0xFC, .. Encoding.UTF8.GetBytes("app:user/42")]), Encoding.ASCII.GetString(lease.Wire));
        Assert.Equal(Encoding.UTF8.GetBytes("app:user/42"), lease.GetPlacement(scratch).ToArray()); // on the key's server
        Assert.Equal("user/42", lease.Original);
        Assert.NotEqual(key.CopyFor(7).Binary, lease.Binary);
    }

    [Fact]
    public void LeaseFor_Key186Bytes_HashedWithItsMarkerAndStillPlacedByTheKey()
    {
        var key = MemcachedKey.Create(string.Empty, new string('a', 186));
        byte[] scratch = new byte[MemcachedKey.MaxPlainLength];

        MemcachedKey lease = key.LeaseFor();

        Assert.Equal(33, lease.Binary.Length); // 0xFC, then the SHA-256 of 0xFC and the key's 186 bytes
        Assert.Equal(0xFC, lease.Binary[0]);
        Assert.Equal(System.Security.Cryptography.SHA256.HashData([0xFC, .. Encoding.ASCII.GetBytes(new string('a', 186))]), lease.Binary[1..]);
        Assert.Equal(Encoding.ASCII.GetBytes(new string('a', 186)), lease.GetPlacement(scratch).ToArray());
    }
}
