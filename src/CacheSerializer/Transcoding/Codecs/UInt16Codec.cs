using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>ushort: 2 bytes little-endian, DefaultTranscoder's layout under 0x0108.</summary>
internal sealed class UInt16Codec : FixedSizeCodec<ushort>
{
    public static readonly UInt16Codec Instance = new();

    private UInt16Codec()
        : base(TranscoderFlags.UInt16, 2)
    {
    }

    protected override void Encode(Span<byte> destination, ushort value) => BinaryPrimitives.WriteUInt16LittleEndian(destination, value);

    protected override ushort Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadUInt16LittleEndian(source);
}
