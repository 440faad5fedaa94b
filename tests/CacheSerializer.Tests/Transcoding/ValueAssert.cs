namespace CacheSerializer.Tests.Transcoding;

/// <summary>Exact equality: same runtime type and same bits (NaN payloads, -0.0, decimal scale, DateTime Kind, offsets).</summary>
internal static class ValueAssert
{
    public static void Identical(object? expected, object? actual)
    {
        if (expected is null)
        {
            Assert.Null(actual);
            return;
        }

        Assert.NotNull(actual);
        Assert.Equal(expected.GetType(), actual.GetType());
        switch (expected)
        {
            case float f:
                Assert.Equal(BitConverter.SingleToInt32Bits(f), BitConverter.SingleToInt32Bits((float)actual));
                break;
            case double d:
                Assert.Equal(BitConverter.DoubleToInt64Bits(d), BitConverter.DoubleToInt64Bits((double)actual));
                break;
            case Half h:
                Assert.Equal(BitConverter.HalfToInt16Bits(h), BitConverter.HalfToInt16Bits((Half)actual));
                break;
            case decimal m:
                Assert.Equal(decimal.GetBits(m), decimal.GetBits((decimal)actual));
                break;
            case DateTime t:
                Assert.Equal(t.Kind, ((DateTime)actual).Kind);
                Assert.Equal(t.Ticks, ((DateTime)actual).Ticks);
                break;
            case DateTimeOffset o:
                Assert.Equal(o.Ticks, ((DateTimeOffset)actual).Ticks);
                Assert.Equal(o.Offset, ((DateTimeOffset)actual).Offset);
                break;
            case byte[] bytes:
                Assert.Equal(bytes, (byte[])actual);
                break;
            default:
                Assert.Equal(expected, actual);
                break;
        }
    }
}
