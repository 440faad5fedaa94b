using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

/// <summary>The recache flags of a reply and the placeholder rule, on the exact lines memcached 1.6.18 sends (captured
/// with nc against the real server; the integration tests in MemcachedClientGetOrCreateTests check the same rule live).</summary>
public class RecacheFlagsTests
{
    private static GetReply Read(string text)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(text);
        Assert.True(MetaReplyParser.TryRead(buffer, out MetaReply reply, out _));
        return GetReply.FromValue(reply, ttl: false, pooled: false);
    }

    [Theory]
    [InlineData("VA 2 f7 c3 t30 O3\r\nhi\r\n", "None")]
    [InlineData("VA 0 f0 c1 t5 O1 W\r\n\r\n", "Won")]
    [InlineData("VA 0 f0 c1 t5 O2 Z\r\n\r\n", "WinSent")]
    [InlineData("VA 2 f7 c4 t20 O7 X W\r\nhi\r\n", "Won, Stale")]
    [InlineData("VA 2 f7 c4 t20 O8 Z X\r\nhi\r\n", "Stale, WinSent")]
    [InlineData("HD c8 O4 Z X\r\n", "Stale, WinSent")]
    public void GetRecacheFlags_RepliesOfMemcached1618_ReadsWXZ(string text, string expected)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(text);

        Assert.True(MetaReplyParser.TryRead(buffer, out MetaReply reply, out _));

        Assert.Equal(expected, reply.GetRecacheFlags().ToString());
    }

    [Fact]
    public void GetRecacheFlags_TokensStartingWithTheLetters_AreNotFlags()
    {
        // A one-letter token is a flag; an opaque such as OW or a key echo starting with W is not.
        byte[] buffer = Encoding.ASCII.GetBytes("HD OW kWX c1\r\n");

        Assert.True(MetaReplyParser.TryRead(buffer, out MetaReply reply, out _));

        Assert.Equal(RecacheFlags.None, reply.GetRecacheFlags());
    }

    [Fact]
    public void FromValue_PlaceholderThisGetCreated_IsAMissThatWon()
    {
        GetReply reply = Read("VA 0 f0 c10 O4 W\r\n\r\n");

        Assert.Equal((false, true, true, 10ul), (reply.Hit, reply.IsPlaceholder, reply.Won, reply.Cas));
    }

    [Fact]
    public void FromValue_PlaceholderAnotherGetCreated_IsAMissNotWon()
    {
        GetReply reply = Read("VA 0 f0 O3 Z\r\n\r\n");

        Assert.Equal((false, true, false), (reply.Hit, reply.IsPlaceholder, reply.Won));
    }

    [Fact]
    public void FromValue_InvalidatedPlaceholder_IsStillAPlaceholder()
    {
        GetReply reply = Read("VA 0 f0 c11 O6 X W\r\n\r\n");

        Assert.Equal((false, true, true, true), (reply.Hit, reply.IsPlaceholder, reply.Won, reply.Stale));
    }

    [Theory]
    [InlineData("VA 0 f0 O1\r\n\r\n")]                  // an empty legacy string another client stored, no win out
    [InlineData("VA 0 f64082 O1 Z\r\n\r\n")]            // an empty byte[] (0xFA52) whose refresh was won elsewhere
    [InlineData("VA 1 f0 O1 Z\r\nx\r\n")]               // one byte with flags 0
    [InlineData("VA 2 f7 c4 O8 Z X\r\nhi\r\n")]         // a stale value
    public void FromValue_RealValues_AreHits(string text)
    {
        GetReply reply = Read(text);

        Assert.Equal((true, false), (reply.Hit, reply.IsPlaceholder));
    }
}
