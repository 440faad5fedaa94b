using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// A collection member (array, list, set, collection interface) written as a repeated field.
/// Null writes nothing; empty writes the empty-collection marker (see <see cref="EmptyMarker"/>); elements write one field
/// each, or one packed field when the member says <c>IsPacked</c>. The reader takes packed and unpacked runs alike.
/// </summary>
internal sealed class RepeatedMember<TOwner, TColl, TElem> : MemberCodec<TOwner>, IBodyReader<PackedRun<TElem>>
    where TColl : class, IEnumerable<TElem>
{
    private readonly Func<TOwner, TColl?> _get;
    private readonly Setter<TOwner, TColl>? _set;
    private readonly Func<TColl> _create;
    private readonly Func<List<TElem>, TColl>? _fromBuffer;
    private readonly ValueCodec<TElem> _codec;
    private readonly string _ownerName;
    private readonly bool _packed;
    private readonly bool _overwrite;

    // The declared type is List<T> (or a subclass): read and write it directly, with no type test or interface call.
    private readonly bool _isList = typeof(List<TElem>).IsAssignableFrom(typeof(TColl));

    // Elements that are messages (contracts): measured, written and read without the per-element virtual hops.
    private readonly MessageCodec<TElem>? _message;
    private readonly uint _tag;
    private readonly int _tagSize;

    // fromBuffer: for arrays, builds the collection from what was read; other shapes are filled through ICollection.
    public RepeatedMember(
        int fieldNumber,
        string name,
        string ownerName,
        Func<TOwner, TColl?> get,
        Setter<TOwner, TColl>? set,
        Func<TColl> create,
        Func<List<TElem>, TColl>? fromBuffer,
        ValueCodec<TElem> codec,
        bool packed,
        bool overwrite)
        : base(fieldNumber, name)
    {
        _get = get;
        _set = set;
        _create = create;
        _fromBuffer = fromBuffer;
        _codec = codec;
        _ownerName = ownerName;
        _packed = packed && codec.IsPackable;
        _overwrite = overwrite;
        _tag = MakeTag(fieldNumber, _packed ? WireType.LengthDelimited : codec.WireType);
        _message = codec as MessageCodec<TElem>;
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);
    }

    public override int Measure(TOwner owner, int depth)
    {
        var collection = _get(owner);
        if (collection is null)
        {
            return 0;
        }

        TElem[]? rented = null;
        var items = _isList
            ? CollectionsMarshal.AsSpan(Unsafe.As<List<TElem>>(collection))
            : CollectionView.AsSpan(collection, ref rented);
        try
        {
            if (items.IsEmpty)
            {
                return EmptyMarker.Size(_tagSize);
            }

            int size = 0;
            if (_message is not null)
            {
                // Inline of MessageCodec.Measure: record each element's size for the writing pass (see SizeCache).
                var sizes = SizeCache.Current;
                foreach (var item in items)
                {
                    if (item is null)
                    {
                        ThrowHelper.ThrowNullElement(_ownerName, Name);
                    }

                    int slot = sizes.Reserve();
                    int body = _message.MeasureBody(item, depth + 1);
                    sizes.Set(slot, body);
                    size += CodedOutputStream.ComputeLengthSize(body) + body;
                }
            }
            else
            {
                foreach (var item in items)
                {
                    if (item is null)
                    {
                        ThrowHelper.ThrowNullElement(_ownerName, Name);
                    }

                    size += _codec.Measure(item, depth);
                }
            }

            return _packed ? _tagSize + CodedOutputStream.ComputeLengthSize(size) + size : size + (items.Length * _tagSize);
        }
        finally
        {
            CollectionView.Return(rented);
        }
    }

    public override void Write(ref WriteContext ctx, TOwner owner)
    {
        var collection = _get(owner);
        if (collection is null)
        {
            return;
        }

        TElem[]? rented = null;
        var items = _isList
            ? CollectionsMarshal.AsSpan(Unsafe.As<List<TElem>>(collection))
            : CollectionView.AsSpan(collection, ref rented);
        try
        {
            if (items.IsEmpty)
            {
                EmptyMarker.Write(ref ctx, FieldNumber);
            }
            else if (_packed)
            {
                int size = 0;
                foreach (var item in items)
                {
                    size += _codec.Measure(item, 0);
                }

                ctx.WriteTag(_tag);
                ctx.WriteLength(size);
                foreach (var item in items)
                {
                    _codec.Write(ref ctx, item);
                }
            }
            else if (_message is not null)
            {
                var sizes = SizeCache.Current;
                foreach (var item in items)
                {
                    ctx.WriteTag(_tag);
                    ctx.WriteLength(sizes.Next());
                    _message.WriteBody(ref ctx, item);
                }
            }
            else
            {
                foreach (var item in items)
                {
                    ctx.WriteTag(_tag);
                    _codec.Write(ref ctx, item);
                }
            }
        }
        finally
        {
            CollectionView.Return(rented);
        }
    }

    public override uint Read(ref ParseContext ctx, uint tag, ref TOwner owner)
    {
        var existing = _get(owner);
        List<TElem>? buffer = null;
        ICollection<TElem> target;
        if (_fromBuffer is not null)
        {
            target = buffer = [];
        }
        else
        {
            if (existing is null)
            {
                existing = _create();
                SetOrThrow(ref owner, existing);
            }

            target = existing as ICollection<TElem> ?? ThrowHelper.ThrowCannotAdd<ICollection<TElem>>(_ownerName, Name, existing.GetType());
        }

        // Read the whole run of this field: its elements arrive one tag each, packed, or as the empty marker.
        var elementWire = _codec.WireType;
        if (_isList && tag == _tag && elementWire == GetTagWireType(_tag))
        {
            // The common case, unpacked elements into a List: add directly while the run lasts.
            var list = Unsafe.As<List<TElem>>(target);
            if (_message is not null)
            {
                Frame<TElem>.ReadRun(ref ctx, _message, list, ref tag);
            }
            else
            {
                do
                {
                    list.Add(_codec.Read(ref ctx, default!));
                    tag = ctx.ReadTag();
                }
                while (tag == _tag);
            }

            if (GetTagFieldNumber(tag) != FieldNumber)
            {
                return tag;
            }
        }

        do
        {
            var wire = GetTagWireType(tag);
            if (wire == EmptyMarker.WireType)
            {
                EmptyMarker.Read(ref ctx);
            }
            else if (wire == elementWire)
            {
                target.Add(_codec.Read(ref ctx, default!));
            }
            else if (wire == WireType.LengthDelimited && _codec.IsPackable)
            {
                ReadPacked(ref ctx, target);
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
            }

            tag = ctx.ReadTag();
        }
        while (GetTagFieldNumber(tag) == FieldNumber && tag != 0);

        if (buffer is not null)
        {
            SetOrThrow(ref owner, Concat(existing, buffer));
        }

        return tag;
    }

    public override void Copy(TOwner from, ref TOwner to)
    {
        var source = _get(from);
        if (_set is not null || source is null)
        {
            _set?.Invoke(ref to, source!);
            return;
        }

        var target = _get(to) as ICollection<TElem> ?? ThrowHelper.ThrowCannotAdd<ICollection<TElem>>(_ownerName, Name, typeof(TColl));
        foreach (var item in source)
        {
            target.Add(item);
        }
    }

    public override void ClearForOverwrite(TOwner owner)
    {
        if (_overwrite && _get(owner) is ICollection<TElem> { IsReadOnly: false } collection)
        {
            collection.Clear();
        }
    }

    PackedRun<TElem> IBodyReader<PackedRun<TElem>>.ReadBody(ref ParseContext ctx, PackedRun<TElem> run)
    {
        for (int i = 0; i < run.Count; i++)
        {
            run.Target.Add(_codec.Read(ref ctx, default!));
        }

        return run;
    }

    private void ReadPacked(ref ParseContext ctx, ICollection<TElem> target)
    {
        int fixedSize = _codec.WireType switch
        {
            WireType.Fixed32 => 4,
            WireType.Fixed64 => 8,
            _ => 0,
        };
        if (fixedSize != 0)
        {
            // Fixed-width values: the count follows from the length, and each read is bounds-checked by the reader,
            // so a hostile length fails at the end of the input rather than allocating for it.
            int length = ctx.ReadLength();
            if (length < 0 || length % fixedSize != 0)
            {
                ThrowHelper.ThrowBadPayload($"packed field {FieldNumber} has length {length}, not a multiple of {fixedSize}");
            }

            for (int i = length / fixedSize; i > 0; i--)
            {
                target.Add(_codec.Read(ref ctx, default!));
            }

            return;
        }

        // Varints: ParseContext has no public length limit, so take the block (ReadBytes checks its length against the input)
        // and read it as a message of exactly as many varints as it has final bytes.
        var block = ctx.ReadBytes().Span;
        int count = 0;
        foreach (byte b in block)
        {
            if (b < 0x80)
            {
                count++;
            }
        }

        if (!block.IsEmpty && block[^1] >= 0x80)
        {
            ThrowHelper.ThrowBadPayload($"packed field {FieldNumber} ends inside a varint");
        }

        Frame<PackedRun<TElem>>.ReadRoot(block, this, new PackedRun<TElem>(target, count));
    }

    private void SetOrThrow(ref TOwner owner, TColl value)
    {
        if (_set is null)
        {
            ThrowHelper.ThrowGetOnlyCollectionNull(_ownerName, Name);
        }

        _set(ref owner, value);
    }

    private TColl Concat(TColl? existing, List<TElem> buffer)
    {
        if (existing is not null && existing is TElem[] { Length: > 0 } old)
        {
            buffer.InsertRange(0, old);
        }

        return _fromBuffer!(buffer);
    }
}

/// <summary>The state of one packed block being read: where the values go and how many there are.</summary>
internal readonly record struct PackedRun<TElem>(ICollection<TElem> Target, int Count);
