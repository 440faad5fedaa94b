using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>Half: IEEE 754 binary16, 2 bytes little-endian (flag 0xC526).</summary>
internal sealed class HalfCodec : FixedSizeCodec<Half>
{
    public static readonly HalfCodec Instance = new();

    private HalfCodec()
        : base(TranscoderFlags.Half, 2)
    {
    }

    protected override void Encode(Span<byte> destination, Half value) => BinaryPrimitives.WriteHalfLittleEndian(destination, value);

    protected override Half Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadHalfLittleEndian(source);
}
