using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>A type below the root of a hierarchy: written and read through the root, as protobuf-net does, then checked.</summary>
internal sealed class SubtypeCodec<TDerived, TRoot> : MessageCodec<TDerived>
    where TDerived : TRoot
{
    private readonly MessageCodec<TRoot> _root;

    public SubtypeCodec(MessageCodec<TRoot> root) => _root = root;

    public override bool IsDefault(TDerived value) => value is null;

    public override int MeasureBody(TDerived value, int depth) => _root.MeasureBody(value, depth);

    public override void WriteBody(ref WriteContext ctx, TDerived value) => _root.WriteBody(ref ctx, value);

    public override TDerived ReadBody(ref ParseContext ctx, TDerived existing)
    {
        var value = _root.ReadBody(ref ctx, existing);
        return value is TDerived derived ? derived : ThrowHelper.ThrowWrongSubtype<TDerived>(typeof(TDerived), value!.GetType());
    }
}
