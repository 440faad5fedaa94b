using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Assigns a member of a class or struct (by reference, so struct owners are updated in place).</summary>
internal delegate void Setter<TOwner, TValue>(ref TOwner owner, TValue value);

/// <summary>One serialized member of a contract: its field number, how it is measured, written and read.</summary>
internal abstract class MemberCodec<TOwner>
{
    protected MemberCodec(int fieldNumber, string name)
    {
        FieldNumber = fieldNumber;
        Name = name;
    }

    public int FieldNumber { get; }

    /// <summary>Gets the member's name as the contract declares it, for error messages.</summary>
    public string Name { get; }

    /// <summary>Returns the bytes this member adds to its message (tags included); <paramref name="depth"/> is the message's nesting.</summary>
    public abstract int Measure(TOwner owner, int depth);

    public abstract void Write(ref WriteContext ctx, TOwner owner);

    /// <summary>Reads the field whose tag was just read, and returns the next tag (0 at the end of the message).</summary>
    /// <remarks>Returning the next tag lets a repeated member read a whole run of its own field without a peek API.</remarks>
    public abstract uint Read(ref ParseContext ctx, uint tag, ref TOwner owner);

    /// <summary>Copies this member from one instance to another (when a subtype's field arrives after base fields).</summary>
    public abstract void Copy(TOwner from, ref TOwner to);

    /// <summary>Empties a collection the constructor filled, for <c>OverwriteList</c> members.</summary>
    public virtual void ClearForOverwrite(TOwner owner)
    {
    }
}

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
