using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

// protobuf-net's bcl.proto messages (src/Tools/bcl.proto in protobuf-net/protobuf-net), laid out field for field:
//   TimeSpan { sint64 value = 1; TimeSpanScale scale = 2; }            scale: DAYS=0 HOURS=1 MINUTES=2 SECONDS=3 MILLISECONDS=4 TICKS=5 MINMAX=15
//   DateTime { sint64 value = 1; TimeSpanScale scale = 2; DateTimeKind kind = 3; }   value counts from 1970-01-01
//   Guid     { fixed64 lo = 1; fixed64 hi = 2; }                       the Guid's 16 bytes in ToByteArray order, little-endian
//   Decimal  { uint64 lo = 1; uint32 hi = 2; uint32 signScale = 3; }   signScale = scale << 1 | sign
// Zero fields are not written. Unlike protobuf-net's default, DateTime writes its Kind (field 3), so Utc/Local survive.

internal readonly record struct ScaledTicks(long Value, int Scale, DateTimeKind Kind);

/// <summary>Shared encoding of bcl.TimeSpan / bcl.DateTime: the largest unit that divides the ticks exactly.</summary>
internal static class ScaledTicksFormat
{
    public const int Days = 0, Hours = 1, Minutes = 2, Seconds = 3, Milliseconds = 4, Ticks = 5, MinMax = 15;

    private static readonly long[] s_ticksPerScale =
    [
        TimeSpan.TicksPerDay, TimeSpan.TicksPerHour, TimeSpan.TicksPerMinute, TimeSpan.TicksPerSecond, TimeSpan.TicksPerMillisecond, 1,
    ];

    public static ScaledTicks FromTicks(long ticks, DateTimeKind kind)
    {
        for (int scale = Days; scale < Ticks; scale++)
        {
            if (ticks % s_ticksPerScale[scale] == 0)
            {
                return new ScaledTicks(ticks / s_ticksPerScale[scale], scale, kind);
            }
        }

        return new ScaledTicks(ticks, Ticks, kind);
    }

    /// <summary>Returns the ticks; <see cref="MinMax"/> is reported through <paramref name="minMax"/> (-1 or +1).</summary>
    public static long ToTicks(ScaledTicks value, out int minMax)
    {
        minMax = 0;
        if (value.Scale == MinMax)
        {
            if (value.Value is not (1 or -1))
            {
                ThrowHelper.ThrowBadPayload($"bcl min/max marker {value.Value} is neither -1 nor 1");
            }

            minMax = (int)value.Value;
            return 0;
        }

        if ((uint)value.Scale > Ticks)
        {
            ThrowHelper.ThrowBadPayload($"bcl time scale {value.Scale} is unknown");
        }

        return checked(value.Value * s_ticksPerScale[value.Scale]);
    }

    public static int Measure(ScaledTicks value)
    {
        int size = 0;
        if (value.Value != 0)
        {
            size += 1 + CodedOutputStream.ComputeSInt64Size(value.Value);
        }

        if (value.Scale != Days)
        {
            size += 2;
        }

        if (value.Kind != DateTimeKind.Unspecified)
        {
            size += 2;
        }

        return size;
    }

    public static void Write(ref WriteContext ctx, ScaledTicks value)
    {
        if (value.Value != 0)
        {
            ctx.WriteTag(1, WireFormat.WireType.Varint);
            ctx.WriteSInt64(value.Value);
        }

        if (value.Scale != Days)
        {
            ctx.WriteTag(2, WireFormat.WireType.Varint);
            ctx.WriteInt32(value.Scale);
        }

        if (value.Kind != DateTimeKind.Unspecified)
        {
            ctx.WriteTag(3, WireFormat.WireType.Varint);
            ctx.WriteInt32((int)value.Kind);
        }
    }

    public static ScaledTicks Read(ref ParseContext ctx)
    {
        long value = 0;
        int scale = Days;
        int kind = 0;
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            switch (tag)
            {
                case 8: value = ctx.ReadSInt64(); break;
                case 16: scale = ctx.ReadInt32(); break;
                case 24: kind = ctx.ReadInt32(); break;
                default:
                    if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
                    {
                        return new ScaledTicks(value, scale, (DateTimeKind)kind);
                    }

                    FieldSkipper.Skip(ref ctx, tag);
                    break;
            }
        }

        if ((uint)kind > (uint)DateTimeKind.Local)
        {
            ThrowHelper.ThrowBadPayload($"bcl DateTime kind {kind} is unknown");
        }

        return new ScaledTicks(value, scale, (DateTimeKind)kind);
    }
}

internal sealed class TimeSpanCodec : MessageCodec<TimeSpan>
{
    public override bool IsDefault(TimeSpan value) => value.Ticks == 0;

    public override int MeasureBody(TimeSpan value, int depth) => ScaledTicksFormat.Measure(ToScaled(value));

    public override void WriteBody(ref WriteContext ctx, TimeSpan value) => ScaledTicksFormat.Write(ref ctx, ToScaled(value));

    public override TimeSpan ReadBody(ref ParseContext ctx, TimeSpan existing)
    {
        long ticks = ScaledTicksFormat.ToTicks(ScaledTicksFormat.Read(ref ctx), out int minMax);
        return minMax switch
        {
            1 => TimeSpan.MaxValue,
            -1 => TimeSpan.MinValue,
            _ => TimeSpan.FromTicks(ticks),
        };
    }

    private static ScaledTicks ToScaled(TimeSpan value)
    {
        if (value == TimeSpan.MaxValue)
        {
            return new ScaledTicks(1, ScaledTicksFormat.MinMax, DateTimeKind.Unspecified);
        }

        return value == TimeSpan.MinValue
            ? new ScaledTicks(-1, ScaledTicksFormat.MinMax, DateTimeKind.Unspecified)
            : ScaledTicksFormat.FromTicks(value.Ticks, DateTimeKind.Unspecified);
    }
}

internal sealed class DateTimeCodec : MessageCodec<DateTime>
{
    private static readonly long s_epochTicks = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Unspecified).Ticks;

    private readonly bool _includeKind;

    /// <param name="includeKind">Whether field 3 carries the Kind (our default) or is left out (protobuf-net's default).</param>
    public DateTimeCodec(bool includeKind) => _includeKind = includeKind;

    public override bool IsDefault(DateTime value) => value.Ticks == 0 && value.Kind == DateTimeKind.Unspecified;

    public override int MeasureBody(DateTime value, int depth) => ScaledTicksFormat.Measure(ToScaled(value));

    public override void WriteBody(ref WriteContext ctx, DateTime value) => ScaledTicksFormat.Write(ref ctx, ToScaled(value));

    public override DateTime ReadBody(ref ParseContext ctx, DateTime existing)
    {
        var scaled = ScaledTicksFormat.Read(ref ctx);
        long delta = ScaledTicksFormat.ToTicks(scaled, out int minMax);
        return minMax switch
        {
            1 => DateTime.MaxValue,
            -1 => DateTime.MinValue,
            _ => new DateTime(checked(s_epochTicks + delta), scaled.Kind),
        };
    }

    // protobuf-net writes MinValue/MaxValue as the MINMAX scale, without a kind.
    private ScaledTicks ToScaled(DateTime value)
    {
        if (value == DateTime.MaxValue)
        {
            return new ScaledTicks(1, ScaledTicksFormat.MinMax, DateTimeKind.Unspecified);
        }

        return value == DateTime.MinValue
            ? new ScaledTicks(-1, ScaledTicksFormat.MinMax, DateTimeKind.Unspecified)
            : ScaledTicksFormat.FromTicks(value.Ticks - s_epochTicks, _includeKind ? value.Kind : DateTimeKind.Unspecified);
    }
}

internal sealed class GuidCodec : MessageCodec<Guid>
{
    public override bool IsDefault(Guid value) => value == Guid.Empty;

    public override int MeasureBody(Guid value, int depth) => value == Guid.Empty ? 0 : 18;

    public override void WriteBody(ref WriteContext ctx, Guid value)
    {
        if (value == Guid.Empty)
        {
            return;
        }

        Span<byte> bytes = stackalloc byte[16];
        value.TryWriteBytes(bytes);
        ctx.WriteTag(1, WireFormat.WireType.Fixed64);
        ctx.WriteFixed64(System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bytes));
        ctx.WriteTag(2, WireFormat.WireType.Fixed64);
        ctx.WriteFixed64(System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bytes[8..]));
    }

    public override Guid ReadBody(ref ParseContext ctx, Guid existing)
    {
        ulong lo = 0, hi = 0;
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            switch (tag)
            {
                case 9: lo = ctx.ReadFixed64(); break;
                case 17: hi = ctx.ReadFixed64(); break;
                default:
                    if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
                    {
                        return existing;
                    }

                    FieldSkipper.Skip(ref ctx, tag);
                    break;
            }
        }

        Span<byte> bytes = stackalloc byte[16];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64LittleEndian(bytes, lo);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64LittleEndian(bytes[8..], hi);
        return new Guid(bytes);
    }
}

internal sealed class DecimalCodec : MessageCodec<decimal>
{
    public override bool IsDefault(decimal value) => value == 0m && !decimal.IsNegative(value) && value.Scale == 0;

    public override int MeasureBody(decimal value, int depth)
    {
        Split(value, out ulong lo, out uint hi, out uint signScale);
        int size = 0;
        if (lo != 0)
        {
            size += 1 + CodedOutputStream.ComputeUInt64Size(lo);
        }

        if (hi != 0)
        {
            size += 1 + CodedOutputStream.ComputeUInt32Size(hi);
        }

        if (signScale != 0)
        {
            size += 1 + CodedOutputStream.ComputeUInt32Size(signScale);
        }

        return size;
    }

    public override void WriteBody(ref WriteContext ctx, decimal value)
    {
        Split(value, out ulong lo, out uint hi, out uint signScale);
        if (lo != 0)
        {
            ctx.WriteTag(1, WireFormat.WireType.Varint);
            ctx.WriteUInt64(lo);
        }

        if (hi != 0)
        {
            ctx.WriteTag(2, WireFormat.WireType.Varint);
            ctx.WriteUInt32(hi);
        }

        if (signScale != 0)
        {
            ctx.WriteTag(3, WireFormat.WireType.Varint);
            ctx.WriteUInt32(signScale);
        }
    }

    public override decimal ReadBody(ref ParseContext ctx, decimal existing)
    {
        ulong lo = 0;
        uint hi = 0, signScale = 0;
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            switch (tag)
            {
                case 8: lo = ctx.ReadUInt64(); break;
                case 16: hi = ctx.ReadUInt32(); break;
                case 24: signScale = ctx.ReadUInt32(); break;
                default:
                    if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
                    {
                        return existing;
                    }

                    FieldSkipper.Skip(ref ctx, tag);
                    break;
            }
        }

        // new decimal(...) rejects a scale above 28 with ArgumentOutOfRangeException: the caller wraps it as bad input.
        return new decimal((int)lo, (int)(lo >> 32), (int)hi, (signScale & 1) != 0, (byte)(signScale >> 1));
    }

    private static void Split(decimal value, out ulong lo, out uint hi, out uint signScale)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        lo = (uint)bits[0] | ((ulong)(uint)bits[1] << 32);
        hi = (uint)bits[2];
        signScale = (uint)(((bits[3] >> 15) & 0x01FE) | ((bits[3] >> 31) & 0x0001));
    }
}

/// <summary>Our layout (protobuf-net has none): <c>DateTimeOffset { int64 ticks = 1; sint32 offsetMinutes = 2; }</c>, ticks of the local clock.</summary>
internal sealed class DateTimeOffsetCodec : MessageCodec<DateTimeOffset>
{
    public override bool IsDefault(DateTimeOffset value) => value.Ticks == 0 && value.Offset == TimeSpan.Zero;

    public override int MeasureBody(DateTimeOffset value, int depth)
    {
        int minutes = (int)value.Offset.TotalMinutes;
        return (value.Ticks != 0 ? 1 + CodedOutputStream.ComputeInt64Size(value.Ticks) : 0)
            + (minutes != 0 ? 1 + CodedOutputStream.ComputeSInt32Size(minutes) : 0);
    }

    public override void WriteBody(ref WriteContext ctx, DateTimeOffset value)
    {
        int minutes = (int)value.Offset.TotalMinutes;
        if (value.Ticks != 0)
        {
            ctx.WriteTag(1, WireFormat.WireType.Varint);
            ctx.WriteInt64(value.Ticks);
        }

        if (minutes != 0)
        {
            ctx.WriteTag(2, WireFormat.WireType.Varint);
            ctx.WriteSInt32(minutes);
        }
    }

    public override DateTimeOffset ReadBody(ref ParseContext ctx, DateTimeOffset existing)
    {
        long ticks = 0;
        int minutes = 0;
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            switch (tag)
            {
                case 8: ticks = ctx.ReadInt64(); break;
                case 16: minutes = ctx.ReadSInt32(); break;
                default:
                    if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
                    {
                        return existing;
                    }

                    FieldSkipper.Skip(ref ctx, tag);
                    break;
            }
        }

        return new DateTimeOffset(ticks, TimeSpan.FromMinutes(minutes));
    }
}

/// <summary>protobuf-net's layout: DateOnly as an int32 varint of <see cref="DateOnly.DayNumber"/>.</summary>
internal sealed class DateOnlyCodec : ValueCodec<DateOnly>
{
    public override Google.Protobuf.WireFormat.WireType WireType => WireFormat.WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(DateOnly value) => value.DayNumber == 0;
    public override int Measure(DateOnly value, int depth) => CodedOutputStream.ComputeInt32Size(value.DayNumber);
    public override void Write(ref WriteContext ctx, DateOnly value) => ctx.WriteInt32(value.DayNumber);
    public override DateOnly Read(ref ParseContext ctx, DateOnly existing) => DateOnly.FromDayNumber(ctx.ReadInt32());
}

/// <summary>protobuf-net's layout: TimeOnly as an int64 varint of <see cref="TimeOnly.Ticks"/>.</summary>
internal sealed class TimeOnlyCodec : ValueCodec<TimeOnly>
{
    public override Google.Protobuf.WireFormat.WireType WireType => WireFormat.WireType.Varint;
    public override bool IsPackable => true;
    public override bool IsDefault(TimeOnly value) => value.Ticks == 0;
    public override int Measure(TimeOnly value, int depth) => CodedOutputStream.ComputeInt64Size(value.Ticks);
    public override void Write(ref WriteContext ctx, TimeOnly value) => ctx.WriteInt64(value.Ticks);
    public override TimeOnly Read(ref ParseContext ctx, TimeOnly existing) => new(ctx.ReadInt64());
}
