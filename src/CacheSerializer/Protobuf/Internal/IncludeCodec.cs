using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>A <c>[ProtoInclude]</c> edge from a level to one direct subtype.</summary>
internal abstract class IncludeCodec<TBase>
{
    protected IncludeCodec(int fieldNumber, Type derivedType)
    {
        FieldNumber = fieldNumber;
        DerivedType = derivedType;
    }

    public int FieldNumber { get; }

    public Type DerivedType { get; }

    public abstract bool HasCallbacks { get; }

    public abstract bool Matches(TBase value);

    public abstract int Measure(TBase value, int depth);

    public abstract void Write(ref WriteContext ctx, TBase value);

    public abstract TBase Read(ref ParseContext ctx, TBase existing);

    public abstract void RunCallbacks(TBase value);
}

internal sealed class IncludeCodec<TBase, TDerived> : IncludeCodec<TBase>
    where TDerived : TBase
{
    private readonly ContractCodec<TDerived> _level;
    private readonly uint _tag;
    private readonly int _tagSize;

    public IncludeCodec(int fieldNumber, ContractCodec<TDerived> level)
        : base(fieldNumber, typeof(TDerived))
    {
        _level = level;
        _tag = MakeTag(fieldNumber, WireType.LengthDelimited);
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);
    }

    public override bool HasCallbacks => _level.HasAnyCallbacks;

    public override bool Matches(TBase value) => value is TDerived;

    public override int Measure(TBase value, int depth)
    {
        var sizes = SizeCache.Current;
        int slot = sizes.Reserve();
        int body = _level.MeasureBody((TDerived)value!, depth + 1);
        sizes.Set(slot, body);
        return _tagSize + CodedOutputStream.ComputeLengthSize(body) + body;
    }

    public override void Write(ref WriteContext ctx, TBase value)
    {
        ctx.WriteTag(_tag);
        ctx.WriteLength(SizeCache.Current.Next());
        _level.WriteBody(ref ctx, (TDerived)value!);
    }

    public override TBase Read(ref ParseContext ctx, TBase existing)
        => Frame<TDerived>.ReadMessage(ref ctx, _level.LevelReader, existing is TDerived derived ? derived : default!);

    public override void RunCallbacks(TBase value) => _level.RunCallbacks((TDerived)value!);
}
