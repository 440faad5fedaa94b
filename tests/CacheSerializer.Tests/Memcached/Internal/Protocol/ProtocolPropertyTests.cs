using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;
using FsCheck;
using FsCheck.Fluent;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

/// <summary>Properties over arbitrary keys, values and bytes (FsCheck).</summary>
public class ProtocolPropertyTests
{
    [Fact]
    public void MemcachedKey_AnyString_GivesAValidTokenThatDecodesToTheStoredKey()
    {
        Prop.ForAll(ArbMap.Default.ArbFor<string>(), (string text) =>
        {
            var key = MemcachedKey.Create("p:", text ?? string.Empty);
            bool token = key.Wire.Length is > 0 and <= MemcachedKey.MaxPlainLength && MemcachedKey.IsPlain(key.Wire);
            bool decodes = key.IsBase64 ? Convert.FromBase64String(Encoding.ASCII.GetString(key.Wire)).AsSpan().SequenceEqual(key.Binary) : key.Wire.AsSpan().SequenceEqual(key.Binary);
            return token && decodes;
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void MemcachedKey_TwoDifferentStrings_NeverShareAStoredKey()
    {
        Prop.ForAll(ArbMap.Default.ArbFor<string>(), ArbMap.Default.ArbFor<string>(), (string a, string b) =>
        {
            a ??= string.Empty;
            b ??= string.Empty;
            return a == b || !MemcachedKey.Create(string.Empty, a).Binary.AsSpan().SequenceEqual(MemcachedKey.Create(string.Empty, b).Binary);
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void TryRead_AnyValueAndFlags_ComesBackEqual()
    {
        Prop.ForAll(ArbMap.Default.ArbFor<byte[]>(), ArbMap.Default.ArbFor<uint>(), (byte[] value, uint flags) =>
        {
            value ??= [];
            byte[] reply = [.. Encoding.ASCII.GetBytes($"VA {value.Length} f{flags} O7\r\n"), .. value, .. "\r\n"u8];
            bool parsed = MetaReplyParser.TryRead(reply, out MetaReply read, out int consumed);
            return parsed && consumed == reply.Length && read.Data.SequenceEqual(value) && read.GetFlags() == flags;
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void TryRead_ArbitraryBytes_OnlyEverReturnsOrThrowsProtocolViolation()
    {
        Gen<byte[]> replyLike = Gen.OneOf(
            ArbMap.Default.ArbFor<byte[]>().Generator,
            Gen.Elements("VA ", "HD", "EN", "MN", "VA 3 f1", "\r\n", " O1", "SERVER_ERROR x", "VA -", "VA 99999999999")
                .ListOf().Select(parts => Encoding.ASCII.GetBytes(string.Concat(parts))));
        Prop.ForAll(replyLike.ToArbitrary(), (byte[] bytes) =>
        {
            try
            {
                bool parsed = MetaReplyParser.TryRead(bytes, out MetaReply reply, out int consumed);
                return parsed ? consumed > 0 && consumed <= bytes.Length : consumed == 0;
            }
            catch (ProtocolViolationException)
            {
                return true;
            }
        }).QuickCheckThrowOnFailure();
    }
}
