using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>ulong: 8 bytes little-endian, DefaultTranscoder's layout under 0x010C.</summary>
internal sealed class UInt64Codec : FixedSizeCodec<ulong>
{
    public static readonly UInt64Codec Instance = new();

    private UInt64Codec()
        : base(TranscoderFlags.UInt64, 8)
    {
    }

    protected override void Encode(Span<byte> destination, ulong value) => BinaryPrimitives.WriteUInt64LittleEndian(destination, value);

    protected override ulong Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadUInt64LittleEndian(source);
}
