using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>float: IEEE 754 binary32 little-endian (NaN payloads and -0.0 kept), DefaultTranscoder's layout under 0x010D.</summary>
internal sealed class SingleCodec : FixedSizeCodec<float>
{
    public static readonly SingleCodec Instance = new();

    private SingleCodec()
        : base(TranscoderFlags.Single, 4)
    {
    }

    protected override void Encode(Span<byte> destination, float value) => BinaryPrimitives.WriteSingleLittleEndian(destination, value);

    protected override float Decode(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadSingleLittleEndian(source);
}
