using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>double: IEEE 754 binary64 little-endian (NaN payloads and -0.0 kept), DefaultTranscoder's layout under 0x010E.</summary>
internal sealed class DoubleCodec : FixedSizeCodec<double>
{
    public static readonly DoubleCodec Instance = new();

    private DoubleCodec()
        : base(TranscoderFlags.Double, 8)
    {
    }

    protected override void Encode(Span<byte> destination, double value) => BinaryPrimitives.WriteDoubleLittleEndian(destination, value);

    protected override double Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadDoubleLittleEndian(source);
}
