using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>TimeOnly: ticks since midnight, 8 bytes little-endian (flag 0xC525).</summary>
internal sealed class TimeOnlyCodec : FixedSizeCodec<TimeOnly>
{
    public static readonly TimeOnlyCodec Instance = new();

    private TimeOnlyCodec()
        : base(TranscoderFlags.TimeOnly, 8)
    {
    }

    protected override void Encode(Span<byte> destination, TimeOnly value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);

    protected override TimeOnly Decode(ReadOnlySpan<byte> source) => new TimeOnly(BinaryPrimitives.ReadInt64LittleEndian(source));
}
