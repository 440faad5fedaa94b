using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>int: 4 bytes little-endian, DefaultTranscoder's layout under 0x0109.</summary>
internal sealed class Int32Codec : FixedSizeCodec<int>
{
    public static readonly Int32Codec Instance = new();

    private Int32Codec()
        : base(TranscoderFlags.Int32, 4)
    {
    }

    protected override void Encode(Span<byte> destination, int value) => BinaryPrimitives.WriteInt32LittleEndian(destination, value);

    protected override int Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadInt32LittleEndian(source);
}
