using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>sbyte: one byte, two's complement, DefaultTranscoder's layout under 0x0105.</summary>
internal sealed class SByteCodec : FixedSizeCodec<sbyte>
{
    public static readonly SByteCodec Instance = new();

    private SByteCodec()
        : base(TranscoderFlags.SByte, 1)
    {
    }

    protected override void Encode(Span<byte> destination, sbyte value) => destination[0] = unchecked((byte)value);

    protected override sbyte Decode(ReadOnlySpan<byte> source) => unchecked((sbyte)source[0]);
}
