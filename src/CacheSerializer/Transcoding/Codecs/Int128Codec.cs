using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>Int128: 16 bytes little-endian two's complement (flag 0xC527).</summary>
internal sealed class Int128Codec : FixedSizeCodec<Int128>
{
    public static readonly Int128Codec Instance = new();

    private Int128Codec()
        : base(TranscoderFlags.Int128, 16)
    {
    }

    protected override void Encode(Span<byte> destination, Int128 value) => BinaryPrimitives.WriteInt128LittleEndian(destination, value);

    protected override Int128 Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadInt128LittleEndian(source);
}
