using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>UInt128: 16 bytes little-endian (flag 0xC528).</summary>
internal sealed class UInt128Codec : FixedSizeCodec<UInt128>
{
    public static readonly UInt128Codec Instance = new();

    private UInt128Codec()
        : base(TranscoderFlags.UInt128, 16)
    {
    }

    protected override void Encode(Span<byte> destination, UInt128 value) => BinaryPrimitives.WriteUInt128LittleEndian(destination, value);

    protected override UInt128 Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadUInt128LittleEndian(source);
}
