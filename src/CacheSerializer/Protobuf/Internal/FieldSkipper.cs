using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Skips fields this reader does not know, by wire type, without trusting any length beyond the input.</summary>
/// <remarks>
/// <c>ParseContext</c> has no public <c>SkipLastField</c>, so this is its equivalent on the public surface: varints and
/// fixed values are read and dropped, length-delimited fields go through <c>ReadBytes</c> (which checks the length against
/// the input before allocating), and groups (our empty-collection marker among them) through <c>ReadGroup</c>.
/// </remarks>
internal sealed class FieldSkipper : IBufferMessage
{
    public static readonly FieldSkipper Instance = new();

    MessageDescriptor IMessage.Descriptor => throw new NotSupportedException();

    public static void Skip(ref ParseContext ctx, uint tag)
    {
        switch (WireFormat.GetTagWireType(tag))
        {
            case WireFormat.WireType.Varint:
                ctx.ReadUInt64();
                break;
            case WireFormat.WireType.Fixed64:
                ctx.ReadFixed64();
                break;
            case WireFormat.WireType.Fixed32:
                ctx.ReadFixed32();
                break;
            case WireFormat.WireType.LengthDelimited:
                ctx.ReadBytes();
                break;
            case WireFormat.WireType.StartGroup:
                ctx.ReadGroup(Instance);
                break;
            default:
                ThrowHelper.ThrowInvalidWireType(tag);
                break;
        }
    }

    // Inside a group: skip everything up to the end-group tag; ReadGroup then checks that it matches the start.
    void IBufferMessage.InternalMergeFrom(ref ParseContext ctx)
    {
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
            {
                return;
            }

            Skip(ref ctx, tag);
        }
    }

    void IBufferMessage.InternalWriteTo(ref WriteContext ctx) => throw new NotSupportedException();

    void IMessage.MergeFrom(CodedInputStream input) => throw new NotSupportedException();

    void IMessage.WriteTo(CodedOutputStream output) => throw new NotSupportedException();

    int IMessage.CalculateSize() => throw new NotSupportedException();
}
