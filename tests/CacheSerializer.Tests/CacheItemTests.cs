namespace CacheSerializer.Tests;

public class CacheItemTests
{
    [Fact]
    public void Equals_SameFlagsAndBytesInDifferentArrays_IsTrue()
    {
        var a = new CacheItem(0x0112, new ArraySegment<byte>([0, 1, 2, 3], 1, 2));
        var b = new CacheItem(0x0112, new ArraySegment<byte>([1, 2]));

        Assert.True(a == b);
        Assert.Equal(a.GetHashCode(), b.GetHashCode());
    }

    [Fact]
    public void Equals_DifferentFlags_IsFalse()
    {
        var a = new CacheItem(0x0112, new ArraySegment<byte>([1]));
        var b = new CacheItem(0x0109, new ArraySegment<byte>([1]));

        Assert.True(a != b);
    }

    [Fact]
    public void ToString_ShowsFlagsInHexAndLength()
    {
        var item = new CacheItem(0xFA52, new ArraySegment<byte>(new byte[7]));

        Assert.Equal("CacheItem(Flags=0xFA52, 7 bytes)", item.ToString());
    }
}
