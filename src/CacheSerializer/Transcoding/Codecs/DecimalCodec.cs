using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>
/// decimal: <see cref="decimal.GetBits(decimal)"/> as four 32-bit little-endian integers (lo, mid, hi, flags), so the
/// scale is kept (1.10m stays 1.10m). Flag 0xC520: DefaultTranscoder has no working decimal layout (it tries BSON).
/// </summary>
internal sealed class DecimalCodec : FixedSizeCodec<decimal>
{
    public static readonly DecimalCodec Instance = new();

    private DecimalCodec()
        : base(TranscoderFlags.Decimal, 16)
    {
    }

    protected override void Encode(Span<byte> destination, decimal value)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        for (int i = 0; i < 4; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(destination[(i * 4)..], bits[i]);
        }
    }

    protected override decimal Decode(ReadOnlySpan<byte> source)
    {
        Span<int> bits = stackalloc int[4];
        for (int i = 0; i < 4; i++)
        {
            bits[i] = BinaryPrimitives.ReadInt32LittleEndian(source[(i * 4)..]);
        }

        // The decimal constructor rejects a flags word with a scale above 28 or stray bits (ArgumentException),
        // which the transcoder reports as a malformed item.
        return new decimal(bits);
    }
}
