using ProtoBuf;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// A DateTimeOffset member as protobuf-net has no layout for it (its own model throws "No serializer defined"):
/// <c>message DateTimeOffset { int64 ticks = 1; sint32 offset_minutes = 2; }</c>, the local clock's ticks and the offset.
/// Every tick and the offset come back.
/// </summary>
[ProtoContract(Name = "DateTimeOffset")]
internal struct DateTimeOffsetSurrogate
{
    [ProtoMember(1)]
    public long Ticks;

    [ProtoMember(2, DataFormat = DataFormat.ZigZag)]
    public int OffsetMinutes;

    public static DateTimeOffsetSurrogate From(DateTimeOffset value) =>
        new() { Ticks = value.Ticks, OffsetMinutes = (int)(value.Offset.Ticks / TimeSpan.TicksPerMinute) };

    public static DateTimeOffset To(DateTimeOffsetSurrogate value) => new(value.Ticks, TimeSpan.FromMinutes(value.OffsetMinutes));
}
