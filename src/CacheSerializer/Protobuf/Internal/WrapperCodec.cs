using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>The holder of a non-contract root value, so the member codecs (scalar, collection, map) serve roots too.</summary>
internal struct RootBox<T>
{
    public T Value;
}

/// <summary>A non-contract root (scalar, string, collection) as field 1 of a wrapper message, as protobuf-net writes it.</summary>
internal sealed class WrapperCodec<T> : MessageCodec<T>
{
    private readonly MemberCodec<RootBox<T>> _member;

    public WrapperCodec(MemberCodec<RootBox<T>> member) => _member = member;

    public override bool IsDefault(T value) => value is null;

    public override int MeasureBody(T value, int depth) => _member.Measure(new RootBox<T> { Value = value }, depth);

    public override void WriteBody(ref WriteContext ctx, T value) => _member.Write(ref ctx, new RootBox<T> { Value = value });

    public override T ReadBody(ref ParseContext ctx, T existing)
    {
        var box = new RootBox<T> { Value = existing };
        uint tag = ctx.ReadTag();
        while (tag != 0)
        {
            if (GetTagFieldNumber(tag) == 1)
            {
                tag = _member.Read(ref ctx, tag, ref box);
            }
            else if (GetTagWireType(tag) == WireType.EndGroup)
            {
                break;
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
                tag = ctx.ReadTag();
            }
        }

        return box.Value;
    }
}
