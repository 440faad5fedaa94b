using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>short: 2 bytes little-endian, DefaultTranscoder's layout under 0x0107.</summary>
internal sealed class Int16Codec : FixedSizeCodec<short>
{
    public static readonly Int16Codec Instance = new();

    private Int16Codec()
        : base(TranscoderFlags.Int16, 2)
    {
    }

    protected override void Encode(Span<byte> destination, short value) => BinaryPrimitives.WriteInt16LittleEndian(destination, value);

    protected override short Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadInt16LittleEndian(source);
}
