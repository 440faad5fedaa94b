using System.Buffers;
using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Tests.Memcached.Internal.Protocol;

public class MetaWriterTests
{
    private static string Written(Action<ArrayBufferWriter<byte>> write)
    {
        var buffer = new ArrayBufferWriter<byte>();
        write(buffer);
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static MemcachedKey Key(string text) => MemcachedKey.Create(string.Empty, text);

    [Fact]
    public void WriteGet_ValueOnly_IsMgWithValueFlagsAndOpaque()
    {
        Assert.Equal("mg foo v f O7\r\n", Written(w => MetaWriter.WriteGet(w, Key("foo"), value: true, cas: false, touchTtl: -1, quiet: false, opaque: 7)));
    }

    [Fact]
    public void WriteGet_CasTtlTouchQuiet_AllFlagsInOrder()
    {
        Assert.Equal("mg foo v f c t T30 q O1\r\n", Written(w => MetaWriter.WriteGet(w, Key("foo"), value: true, cas: true, touchTtl: 30, quiet: true, opaque: 1, ttl: true)));
    }

    [Fact]
    public void WriteGet_Base64Key_AddsBFlag()
    {
        Assert.Equal("mg YSBi b v f O2\r\n", Written(w => MetaWriter.WriteGet(w, Key("a b"), value: true, cas: false, touchTtl: -1, quiet: false, opaque: 2)));
    }

    [Fact]
    public void WriteGet_TouchWithoutValue_IsMgWithT()
    {
        Assert.Equal("mg foo T0 O3\r\n", Written(w => MetaWriter.WriteGet(w, Key("foo"), value: false, cas: false, touchTtl: 0, quiet: false, opaque: 3)));
    }

    [Fact]
    public void WriteGet_VivifyAndRecache_NAndRComeBeforeTheOtherFlags()
    {
        // memcached 1.6.18 applies flags in order: N must come before t for t to report the new placeholder's TTL.
        Assert.Equal("mg foo N11 R90 v f c t O8\r\n", Written(w => MetaWriter.WriteGet(w, Key("foo"), value: true, cas: true, touchTtl: -1, quiet: false, opaque: 8, ttl: true, vivifyTtl: 11, recacheTtl: 90)));
    }

    [Fact]
    public void WriteGet_VivifyWithoutRecache_HasNoR()
    {
        Assert.Equal("mg foo N0 v f c O9\r\n", Written(w => MetaWriter.WriteGet(w, Key("foo"), value: true, cas: true, touchTtl: -1, quiet: false, opaque: 9, vivifyTtl: 0, recacheTtl: 0)));
    }

    [Fact]
    public void WriteSet_Set_HasLengthFlagsTtlAndDataBlock()
    {
        Assert.Equal("ms foo 2 F4294967295 T60 O9\r\nhi\r\n", Written(w => MetaWriter.WriteSet(w, Key("foo"), StoreMode.Set, uint.MaxValue, 60, 0, "hi"u8, 9)));
    }

    [Theory]
    [InlineData(nameof(StoreMode.Add), "ME")]
    [InlineData(nameof(StoreMode.Replace), "MR")]
    [InlineData(nameof(StoreMode.Append), "MA")]
    [InlineData(nameof(StoreMode.Prepend), "MP")]
    public void WriteSet_Modes_WriteModeFlag(string mode, string flag)
    {
        Assert.Equal($"ms k 0 F0 T0 {flag} O1\r\n\r\n", Written(w => MetaWriter.WriteSet(w, Key("k"), Enum.Parse<StoreMode>(mode), 0, 0, 0, default, 1)));
    }

    [Fact]
    public void WriteSet_Cas_WritesCFlag()
    {
        Assert.Equal("ms k 1 F5 T0 C12345678901 O4\r\nx\r\n", Written(w => MetaWriter.WriteSet(w, Key("k"), StoreMode.Set, 5, 0, 12345678901, "x"u8, 4)));
    }

    [Fact]
    public void WriteSet_ValueSpellingProtocolLines_IsSentVerbatimByLength()
    {
        Assert.Equal("ms k 7 F0 T0 O1\r\n\r\nEND\r\n\r\n", Written(w => MetaWriter.WriteSet(w, Key("k"), StoreMode.Set, 0, 0, 0, "\r\nEND\r\n"u8, 1)));
    }

    [Fact]
    public void WriteDelete_IsMd()
    {
        Assert.Equal("md foo O5\r\n", Written(w => MetaWriter.WriteDelete(w, Key("foo"), 5)));
    }

    [Fact]
    public void WriteDelete_WithCas_HasC()
    {
        Assert.Equal("md foo C42 O5\r\n", Written(w => MetaWriter.WriteDelete(w, Key("foo"), 5, cas: 42)));
    }

    [Fact]
    public void WriteDelete_Invalidate_HasIAndTtl()
    {
        Assert.Equal("md foo I T60 O6\r\n", Written(w => MetaWriter.WriteDelete(w, Key("foo"), 6, invalidate: true, ttl: 60)));
    }

    [Fact]
    public void WriteDelete_InvalidateKeepingTtlWithCas_HasCAndINoT()
    {
        Assert.Equal("md YSBi b C7 I O1\r\n", Written(w => MetaWriter.WriteDelete(w, Key("a b"), 1, cas: 7, invalidate: true, ttl: -1)));
    }

    [Fact]
    public void WriteDelete_TtlWithoutInvalidate_IsNotWritten()
    {
        // memcached applies T to md only with I; a plain delete never carries it.
        Assert.Equal("md foo O2\r\n", Written(w => MetaWriter.WriteDelete(w, Key("foo"), 2, ttl: 60)));
    }

    [Fact]
    public void WriteArithmetic_IncrementWithInitial_HasNAndJ()
    {
        Assert.Equal("ma c v D5 N60 J100 O6\r\n", Written(w => MetaWriter.WriteArithmetic(w, Key("c"), decrement: false, 5, 100, 60, 6)));
    }

    [Fact]
    public void WriteArithmetic_DecrementWithoutInitial_HasModeDAndNoN()
    {
        Assert.Equal("ma c v MD D1 O6\r\n", Written(w => MetaWriter.WriteArithmetic(w, Key("c"), decrement: true, 1, null, 0, 6)));
    }

    [Fact]
    public void WriteNoop_IsMn()
    {
        Assert.Equal("mn\r\n", Written(MetaWriter.WriteNoop));
    }
}
