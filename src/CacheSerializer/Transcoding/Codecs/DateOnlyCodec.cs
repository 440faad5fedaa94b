using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>DateOnly: day number (days since 0001-01-01), 4 bytes little-endian (flag 0xC524).</summary>
internal sealed class DateOnlyCodec : FixedSizeCodec<DateOnly>
{
    public static readonly DateOnlyCodec Instance = new();

    private DateOnlyCodec()
        : base(TranscoderFlags.DateOnly, 4)
    {
    }

    protected override void Encode(Span<byte> destination, DateOnly value) => BinaryPrimitives.WriteInt32LittleEndian(destination, value.DayNumber);

    protected override DateOnly Decode(ReadOnlySpan<byte> source) => System.DateOnly.FromDayNumber(BinaryPrimitives.ReadInt32LittleEndian(source));
}
