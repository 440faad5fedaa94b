using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>char: the UTF-16 code unit, 2 bytes little-endian (a lone surrogate is kept), DefaultTranscoder's layout under 0x0104.</summary>
internal sealed class CharCodec : FixedSizeCodec<char>
{
    public static readonly CharCodec Instance = new();

    private CharCodec()
        : base(TranscoderFlags.Char, 2)
    {
    }

    protected override void Encode(Span<byte> destination, char value) => BinaryPrimitives.WriteUInt16LittleEndian(destination, value);

    protected override char Decode(ReadOnlySpan<byte> source) => (char)BinaryPrimitives.ReadUInt16LittleEndian(source);
}
