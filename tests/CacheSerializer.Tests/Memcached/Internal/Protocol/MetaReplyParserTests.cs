using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

public class MetaReplyParserTests
{
    private static byte[] Bytes(string s) => Encoding.ASCII.GetBytes(s);

    [Fact]
    public void TryRead_ValueReply_ReturnsDataAndFlags()
    {
        byte[] buffer = Bytes("VA 2 f5 c1 t-1 O123\r\nhi\r\nEN\r\n");

        Assert.True(MetaReplyParser.TryRead(buffer, out MetaReply reply, out int consumed));

        Assert.Equal(MetaReplyCode.Value, reply.Code);
        Assert.Equal("hi", Encoding.ASCII.GetString(reply.Data));
        Assert.Equal(5u, reply.GetFlags());
        Assert.Equal(1ul, reply.GetNumber((byte)'c'));
        Assert.Equal(-1, reply.GetTtl());
        reply.CheckOpaque(123);
        Assert.Equal(25, consumed);
    }

    [Fact]
    public void TryRead_DataSpellingEnd_IsReadByLengthNotByLine()
    {
        byte[] buffer = Bytes("VA 7 O1\r\n\r\nEND\r\n\r\n");

        Assert.True(MetaReplyParser.TryRead(buffer, out MetaReply reply, out int consumed));

        Assert.Equal("\r\nEND\r\n", Encoding.ASCII.GetString(reply.Data));
        Assert.Equal(buffer.Length, consumed);
    }

    [Theory]
    [InlineData("VA 5 O1\r\nab")]
    [InlineData("VA 5 O1\r\nabcde\r")]
    [InlineData("HD O1\r")]
    [InlineData("")]
    public void TryRead_Incomplete_ReturnsFalseConsumingNothing(string text)
    {
        Assert.False(MetaReplyParser.TryRead(Bytes(text), out _, out int consumed));
        Assert.Equal(0, consumed);
    }

    [Theory]
    [InlineData("HD O1\r\n", (int)MetaReplyCode.Success)]
    [InlineData("EN\r\n", (int)MetaReplyCode.Miss)]
    [InlineData("NF O1\r\n", (int)MetaReplyCode.NotFound)]
    [InlineData("NS O1\r\n", (int)MetaReplyCode.NotStored)]
    [InlineData("EX O1\r\n", (int)MetaReplyCode.Exists)]
    [InlineData("MN\r\n", (int)MetaReplyCode.Noop)]
    [InlineData("ERROR\r\n", (int)MetaReplyCode.Error)]
    [InlineData("CLIENT_ERROR bad data chunk\r\n", (int)MetaReplyCode.ClientError)]
    [InlineData("SERVER_ERROR out of memory storing object\r\n", (int)MetaReplyCode.ServerError)]
    public void TryRead_StatusLines_ParseToCode(string text, int expected)
    {
        var code = (MetaReplyCode)expected;
        Assert.True(MetaReplyParser.TryRead(Bytes(text), out MetaReply reply, out int consumed));
        Assert.Equal(code, reply.Code);
        Assert.Equal(text.Length, consumed);
    }

    [Theory]
    [InlineData("XX\r\n")]
    [InlineData("VA abc\r\n")]
    [InlineData("VA -1\r\n")]
    [InlineData("HD\n")]
    [InlineData("VA 2\r\nhiXX")]
    public void TryRead_Garbage_ThrowsProtocolViolation(string text)
    {
        Assert.Throws<ProtocolViolationException>(() => MetaReplyParser.TryRead(Bytes(text), out _, out _));
    }

    [Fact]
    public void TryRead_EndlessLine_ThrowsInsteadOfBuffering()
    {
        byte[] buffer = Bytes(new string('A', MetaReplyParser.MaxLineLength + 10));

        Assert.Throws<ProtocolViolationException>(() => MetaReplyParser.TryRead(buffer, out _, out _));
    }

    [Fact]
    public void CheckOpaque_Mismatch_ThrowsProtocolViolation()
    {
        Assert.True(MetaReplyParser.TryRead(Bytes("HD O2\r\n"), out MetaReply reply, out _));
        try
        {
            reply.CheckOpaque(3);
            Assert.Fail("a reply with another request's opaque was accepted");
        }
        catch (ProtocolViolationException ex)
        {
            Assert.Contains("O3", ex.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void RequiredLength_LargeValueHeader_IsLinePlusDataPlusCrlf()
    {
        Assert.Equal(15 + 1_000_000 + 2, MetaReplyParser.RequiredLength(Bytes("VA 1000000 O1\r\nxx"), 1_000_000));
        Assert.Equal(0, MetaReplyParser.RequiredLength(Bytes("VA 1000000 O1"), 1_000_000));
        Assert.Equal(0, MetaReplyParser.RequiredLength(Bytes("HD O1\r\n"), 10));
    }

    [Fact]
    public void RequiredLength_DeclaredLengthAboveTheLimit_IsAProtocolViolationNamingBoth()
    {
        ProtocolViolationException ex = Assert.Throws<ProtocolViolationException>(() => MetaReplyParser.RequiredLength(Bytes("VA 1073741824 f0 O1\r\n"), 1_049_600));

        Assert.Equal("a VA reply declares a 1073741824-byte value, above the 1049600-byte limit of this connection (MemcachedClientOptions.MaxValueSize plus 1024 bytes); nothing was read into memory for it", ex.Message);
    }
}
