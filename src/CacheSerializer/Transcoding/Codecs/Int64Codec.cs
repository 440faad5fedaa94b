using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>long: 8 bytes little-endian, DefaultTranscoder's layout under 0x010B.</summary>
internal sealed class Int64Codec : FixedSizeCodec<long>
{
    public static readonly Int64Codec Instance = new();

    private Int64Codec()
        : base(TranscoderFlags.Int64, 8)
    {
    }

    protected override void Encode(Span<byte> destination, long value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value);

    protected override long Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadInt64LittleEndian(source);
}
