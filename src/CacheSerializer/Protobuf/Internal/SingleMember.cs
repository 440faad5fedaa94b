using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>A member holding one value (scalar, string, nested message, ...).</summary>
internal sealed class SingleMember<TOwner, TValue> : MemberCodec<TOwner>
{
    private readonly Func<TOwner, TValue> _get;
    private readonly Setter<TOwner, TValue> _set;
    private readonly ValueCodec<TValue> _codec;
    private readonly uint _tag;
    private readonly int _tagSize;
    private readonly bool _merges;

    public SingleMember(int fieldNumber, string name, Func<TOwner, TValue> get, Setter<TOwner, TValue> set, ValueCodec<TValue> codec)
        : base(fieldNumber, name)
    {
        _get = get;
        _set = set;
        _codec = codec;
        _tag = WireFormat.MakeTag(fieldNumber, codec.WireType);
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);

        // A nested message merges into the instance already there (protobuf semantics); scalars simply replace.
        _merges = codec is MessageCodec<TValue>;
    }

    public override int Measure(TOwner owner, int depth)
    {
        var value = _get(owner);
        return _codec.IsDefault(value) ? 0 : _tagSize + _codec.Measure(value, depth);
    }

    public override void Write(ref WriteContext ctx, TOwner owner)
    {
        var value = _get(owner);
        if (!_codec.IsDefault(value))
        {
            ctx.WriteTag(_tag);
            _codec.Write(ref ctx, value);
        }
    }

    public override uint Read(ref ParseContext ctx, uint tag, ref TOwner owner)
    {
        if (tag == _tag)
        {
            _set(ref owner, _codec.Read(ref ctx, _merges ? _get(owner) : default!));
        }
        else
        {
            // Same number, other wire type: not ours to interpret (schema change or damage); skip it like an unknown field.
            FieldSkipper.Skip(ref ctx, tag);
        }

        return ctx.ReadTag();
    }

    public override void Copy(TOwner from, ref TOwner to) => _set(ref to, _get(from));
}
