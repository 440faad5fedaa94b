using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>A value written as a length-delimited sub-message: contracts, bcl.proto values, map entries.</summary>
internal abstract class MessageCodec<T> : ValueCodec<T>, IBodyReader<T>, IBodyWriter<T>
{
    public override WireType WireType => WireType.LengthDelimited;

    /// <summary>Returns the size of the message's fields; <paramref name="depth"/> is this message's nesting (root = 0).</summary>
    public abstract int MeasureBody(T value, int depth);

    public abstract void WriteBody(ref WriteContext ctx, T value);

    public abstract T ReadBody(ref ParseContext ctx, T existing);

    public override int Measure(T value, int depth)
    {
        var sizes = SizeCache.Current;
        int slot = sizes.Reserve();
        int body = MeasureBody(value, depth + 1);
        sizes.Set(slot, body);
        return CodedOutputStream.ComputeLengthSize(body) + body;
    }

    public override void Write(ref WriteContext ctx, T value)
    {
        // The measuring pass recorded this message's size (see SizeCache): no second measure.
        ctx.WriteLength(SizeCache.Current.Next());
        WriteBody(ref ctx, value);
    }

    public override T Read(ref ParseContext ctx, T existing) => Frame<T>.ReadMessage(ref ctx, this, existing);
}
