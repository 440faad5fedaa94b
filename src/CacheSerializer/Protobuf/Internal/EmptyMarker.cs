using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// The empty-collection marker: an empty group (start-group tag then end-group tag) at the collection's own field number.
/// </summary>
/// <remarks>
/// No proto3 field has the group wire type, so Google.Protobuf's generated parser files the marker among the message's
/// unknown fields and still reads the real elements; protobuf-net skips it as an unknown group. Cost: two tags, so 2 bytes
/// for field numbers 1-15 and 4 bytes for 16-2047. Null writes nothing, so null and empty both come back as they went.
/// </remarks>
internal static class EmptyMarker
{
    public const WireType WireType = WireFormat.WireType.StartGroup;

    public static int Size(int tagSize) => 2 * tagSize;

    public static void Write(ref WriteContext ctx, int fieldNumber)
    {
        ctx.WriteTag(fieldNumber, WireFormat.WireType.StartGroup);
        ctx.WriteTag(fieldNumber, WireFormat.WireType.EndGroup);
    }

    /// <summary>Consumes the group whose start tag was just read (anything inside it is skipped).</summary>
    public static void Read(ref ParseContext ctx) => ctx.ReadGroup(FieldSkipper.Instance);
}
