using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// The hot scalar formats as static abstract members: a <see cref="ScalarMember{TOwner, T, TFormat}"/> closed over a
/// struct format is specialized by the JIT, so writing or reading an int or a string member makes no virtual call.
/// </summary>
internal interface IScalarFormat<T>
{
    static abstract WireType WireType { get; }

    static abstract bool IsDefault(T value);

    static abstract int Measure(T value);

    static abstract void Write(ref WriteContext ctx, T value);

    static abstract T Read(ref ParseContext ctx);
}

/// <summary>A member holding one scalar of a hot format (bool, integers, float, double, string).</summary>
/// <remarks>Same encoding as <see cref="SingleMember{TOwner, TValue}"/> with the matching <see cref="ValueCodec{T}"/>.</remarks>
internal sealed class ScalarMember<TOwner, T, TFormat> : MemberCodec<TOwner>
    where TFormat : struct, IScalarFormat<T>
{
    private readonly Func<TOwner, T> _get;
    private readonly Setter<TOwner, T> _set;
    private readonly uint _tag;
    private readonly int _tagSize;

    public ScalarMember(int fieldNumber, string name, Func<TOwner, T> get, Setter<TOwner, T> set)
        : base(fieldNumber, name)
    {
        _get = get;
        _set = set;
        _tag = MakeTag(fieldNumber, TFormat.WireType);
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);
    }

    public override int Measure(TOwner owner, int depth)
    {
        var value = _get(owner);
        return TFormat.IsDefault(value) ? 0 : _tagSize + TFormat.Measure(value);
    }

    public override void Write(ref WriteContext ctx, TOwner owner)
    {
        var value = _get(owner);
        if (!TFormat.IsDefault(value))
        {
            ctx.WriteTag(_tag);
            TFormat.Write(ref ctx, value);
        }
    }

    public override uint Read(ref ParseContext ctx, uint tag, ref TOwner owner)
    {
        if (tag == _tag)
        {
            _set(ref owner, TFormat.Read(ref ctx));
        }
        else
        {
            FieldSkipper.Skip(ref ctx, tag);
        }

        return ctx.ReadTag();
    }

    public override void Copy(TOwner from, ref TOwner to) => _set(ref to, _get(from));
}
