using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>
/// DateTimeOffset: the clock ticks (<see cref="DateTimeOffset.Ticks"/>, 8 bytes little-endian) then the offset in whole
/// minutes (2 bytes little-endian, two's complement); 10 bytes, flag 0xC523. The offset is kept, not normalised to UTC.
/// </summary>
internal sealed class DateTimeOffsetCodec : FixedSizeCodec<DateTimeOffset>
{
    public static readonly DateTimeOffsetCodec Instance = new();

    private DateTimeOffsetCodec()
        : base(TranscoderFlags.DateTimeOffset, 10)
    {
    }

    protected override void Encode(Span<byte> destination, DateTimeOffset value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);
        BinaryPrimitives.WriteInt16LittleEndian(destination[8..], checked((short)value.TotalOffsetMinutes));
    }

    protected override DateTimeOffset Decode(ReadOnlySpan<byte> source)
    {
        long ticks = BinaryPrimitives.ReadInt64LittleEndian(source);
        short minutes = BinaryPrimitives.ReadInt16LittleEndian(source[8..]);

        // The constructor rejects out-of-range ticks and offsets beyond ±14 hours (ArgumentOutOfRangeException),
        // which the transcoder reports as a malformed item.
        return new DateTimeOffset(ticks, TimeSpan.FromMinutes(minutes));
    }
}
