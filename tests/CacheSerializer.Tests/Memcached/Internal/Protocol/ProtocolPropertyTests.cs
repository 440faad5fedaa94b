using System.Security.Cryptography;
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
            text ??= string.Empty;
            var key = MemcachedKey.Create("p:", text);
            bool token = key.Wire.Length is > 0 and <= MemcachedKey.MaxPlainLength && MemcachedKey.IsPlain(key.Wire);
            byte[] written = new byte[MemcachedKey.MaxPlainLength];
            token &= written.AsSpan(0, key.WriteWire(written)).SequenceEqual(key.Wire); // the client writes the token
            bool decodes = key.IsBase64 ? Convert.FromBase64String(Encoding.ASCII.GetString(key.Wire)).AsSpan().SequenceEqual(key.Binary) : key.Wire.AsSpan().SequenceEqual(key.Binary);
            return token && decodes && StoredAsDocumented(key, "p:" + text);
        }).QuickCheckThrowOnFailure();
    }

    // docs/client.md, "Keys", worked out here from the text alone: the UTF-8 bytes of prefix + key when they are printable
    // ASCII (at most 250) or fit base64 (at most 186), else a marker and the SHA-256 of the UTF-8 bytes (0xFF) or, for a
    // string with no UTF-8 form, of its UTF-16 code units (0xFE).
    private static bool StoredAsDocumented(MemcachedKey key, string full)
    {
        byte[] utf8;
        try
        {
            utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true).GetBytes(full);
        }
        catch (EncoderFallbackException)
        {
            byte[] utf16 = [.. full.SelectMany(static c => new[] { (byte)c, (byte)(c >> 8) })];
            return key.IsBase64 && key.Binary.AsSpan().SequenceEqual(Hashed(0xFE, utf16));
        }

        if (utf8.Length is > 0 and <= 250 && utf8.All(static b => b is >= 0x21 and <= 0x7E))
        {
            return !key.IsBase64 && key.Binary.AsSpan().SequenceEqual(utf8);
        }

        return key.IsBase64 && key.Binary.AsSpan().SequenceEqual(utf8.Length is > 0 and <= 186 ? utf8 : Hashed(0xFF, utf8));
    }

    private static byte[] Hashed(byte marker, byte[] data) => [marker, .. SHA256.HashData(data)];

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
