using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>TimeSpan: ticks, 8 bytes little-endian (flag 0xC522).</summary>
internal sealed class TimeSpanCodec : FixedSizeCodec<TimeSpan>
{
    public static readonly TimeSpanCodec Instance = new();

    private TimeSpanCodec()
        : base(TranscoderFlags.TimeSpan, 8)
    {
    }

    protected override void Encode(Span<byte> destination, TimeSpan value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);

    protected override TimeSpan Decode(ReadOnlySpan<byte> source) => new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(source));
}
