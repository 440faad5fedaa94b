using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs.Temporal;

/// <summary>DateTime: <see cref="DateTime.ToBinary"/> as 8 bytes little-endian, DefaultTranscoder's layout under 0x0110. The Kind is kept; a Local value is stored as its instant and read back in the reader's time zone.</summary>
internal readonly struct DateTimeLayout : IFixedSizeLayout<DateTime>
{
    public static int Size => 8;

    public static void Write(Span<byte> destination, DateTime value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.ToBinary());

    public static DateTime Read(ReadOnlySpan<byte> source) => DateTime.FromBinary(BinaryPrimitives.ReadInt64LittleEndian(source));
}

/// <summary>TimeSpan: ticks, 8 bytes little-endian (flag 0xC522).</summary>
internal readonly struct TimeSpanLayout : IFixedSizeLayout<TimeSpan>
{
    public static int Size => 8;

    public static void Write(Span<byte> destination, TimeSpan value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);

    public static TimeSpan Read(ReadOnlySpan<byte> source) => new(BinaryPrimitives.ReadInt64LittleEndian(source));
}

/// <summary>
/// DateTimeOffset: the clock ticks (<see cref="DateTimeOffset.Ticks"/>, 8 bytes little-endian) then the offset in whole
/// minutes (2 bytes little-endian, two's complement); 10 bytes, flag 0xC523. The offset is kept, not normalised to UTC.
/// </summary>
internal readonly struct DateTimeOffsetLayout : IFixedSizeLayout<DateTimeOffset>
{
    public static int Size => 10;

    public static void Write(Span<byte> destination, DateTimeOffset value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);
        BinaryPrimitives.WriteInt16LittleEndian(destination[8..], checked((short)value.TotalOffsetMinutes));
    }

    public static DateTimeOffset Read(ReadOnlySpan<byte> source)
    {
        long ticks = BinaryPrimitives.ReadInt64LittleEndian(source);
        short minutes = BinaryPrimitives.ReadInt16LittleEndian(source[8..]);

        // The constructor rejects out-of-range ticks and offsets beyond ±14 hours (ArgumentOutOfRangeException),
        // which the transcoder reports as a malformed item.
        return new DateTimeOffset(ticks, TimeSpan.FromMinutes(minutes));
    }
}

/// <summary>DateOnly: day number (days since 0001-01-01), 4 bytes little-endian (flag 0xC524).</summary>
internal readonly struct DateOnlyLayout : IFixedSizeLayout<DateOnly>
{
    public static int Size => 4;

    public static void Write(Span<byte> destination, DateOnly value) => BinaryPrimitives.WriteInt32LittleEndian(destination, value.DayNumber);

    public static DateOnly Read(ReadOnlySpan<byte> source) => DateOnly.FromDayNumber(BinaryPrimitives.ReadInt32LittleEndian(source));
}

/// <summary>TimeOnly: ticks since midnight, 8 bytes little-endian (flag 0xC525).</summary>
internal readonly struct TimeOnlyLayout : IFixedSizeLayout<TimeOnly>
{
    public static int Size => 8;

    public static void Write(Span<byte> destination, TimeOnly value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);

    public static TimeOnly Read(ReadOnlySpan<byte> source) => new(BinaryPrimitives.ReadInt64LittleEndian(source));
}
