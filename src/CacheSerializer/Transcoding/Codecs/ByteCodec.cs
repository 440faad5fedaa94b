using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>byte: one byte, DefaultTranscoder's layout under 0x0106.</summary>
internal sealed class ByteCodec : FixedSizeCodec<byte>
{
    public static readonly ByteCodec Instance = new();

    private ByteCodec()
        : base(TranscoderFlags.Byte, 1)
    {
    }

    protected override void Encode(Span<byte> destination, byte value) => destination[0] = value;

    protected override byte Decode(ReadOnlySpan<byte> source) => source[0];
}
