using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>uint: 4 bytes little-endian, DefaultTranscoder's layout under 0x010A.</summary>
internal sealed class UInt32Codec : FixedSizeCodec<uint>
{
    public static readonly UInt32Codec Instance = new();

    private UInt32Codec()
        : base(TranscoderFlags.UInt32, 4)
    {
    }

    protected override void Encode(Span<byte> destination, uint value) => BinaryPrimitives.WriteUInt32LittleEndian(destination, value);

    protected override uint Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadUInt32LittleEndian(source);
}
