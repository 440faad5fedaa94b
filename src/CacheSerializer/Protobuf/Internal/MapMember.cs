using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>A dictionary member written as a protobuf map: one entry message <c>{ key = 1; value = 2; }</c> per pair.</summary>
/// <remarks>Null writes nothing and empty writes the <see cref="EmptyMarker"/>, as for other collections.</remarks>
internal sealed class MapMember<TOwner, TDict, TKey, TValue> : MemberCodec<TOwner>
    where TDict : class, IEnumerable<KeyValuePair<TKey, TValue>>
    where TKey : notnull
{
    private readonly Func<TOwner, TDict?> _get;
    private readonly Setter<TOwner, TDict>? _set;
    private readonly Func<TDict> _create;
    private readonly MapEntryCodec<TKey, TValue> _entry;
    private readonly string _ownerName;
    private readonly bool _overwrite;
    private readonly uint _tag;
    private readonly int _tagSize;

    public MapMember(
        int fieldNumber,
        string name,
        string ownerName,
        Func<TOwner, TDict?> get,
        Setter<TOwner, TDict>? set,
        Func<TDict> create,
        MapEntryCodec<TKey, TValue> entry,
        bool overwrite)
        : base(fieldNumber, name)
    {
        _get = get;
        _set = set;
        _create = create;
        _entry = entry;
        _ownerName = ownerName;
        _overwrite = overwrite;
        _tag = MakeTag(fieldNumber, WireType.LengthDelimited);
        _tagSize = CodedOutputStream.ComputeTagSize(fieldNumber);
    }

    public override int Measure(TOwner owner, int depth)
    {
        var map = _get(owner);
        if (map is null)
        {
            return 0;
        }

        int size = 0, count = 0;
        if (map is Dictionary<TKey, TValue> dictionary)
        {
            foreach (var pair in dictionary)
            {
                size += _tagSize + _entry.Measure(pair, depth);
                count++;
            }
        }
        else
        {
            foreach (var pair in map)
            {
                size += _tagSize + _entry.Measure(pair, depth);
                count++;
            }
        }

        return count == 0 ? EmptyMarker.Size(_tagSize) : size;
    }

    public override void Write(ref WriteContext ctx, TOwner owner)
    {
        var map = _get(owner);
        if (map is null)
        {
            return;
        }

        bool any = false;
        if (map is Dictionary<TKey, TValue> dictionary)
        {
            foreach (var pair in dictionary)
            {
                ctx.WriteTag(_tag);
                _entry.Write(ref ctx, pair);
                any = true;
            }
        }
        else
        {
            foreach (var pair in map)
            {
                ctx.WriteTag(_tag);
                _entry.Write(ref ctx, pair);
                any = true;
            }
        }

        if (!any)
        {
            EmptyMarker.Write(ref ctx, FieldNumber);
        }
    }

    public override uint Read(ref ParseContext ctx, uint tag, ref TOwner owner)
    {
        var map = _get(owner);
        if (map is null)
        {
            if (_set is null)
            {
                ThrowHelper.ThrowGetOnlyCollectionNull(_ownerName, Name);
            }

            map = _create();
            _set(ref owner, map);
        }

        var target = map as IDictionary<TKey, TValue> ?? ThrowHelper.ThrowCannotAdd<IDictionary<TKey, TValue>>(_ownerName, Name, map.GetType());
        do
        {
            var wire = GetTagWireType(tag);
            if (wire == WireType.LengthDelimited)
            {
                var pair = _entry.Read(ref ctx, default);
                if (pair.Key is null)
                {
                    ThrowHelper.ThrowBadPayload($"map field {FieldNumber} ({_ownerName}.{Name}) has an entry without a key");
                }

                // Last entry wins for a repeated key, as protobuf specifies for maps.
                target[pair.Key] = pair.Value;
            }
            else if (wire == EmptyMarker.WireType)
            {
                EmptyMarker.Read(ref ctx);
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
            }

            tag = ctx.ReadTag();
        }
        while (GetTagFieldNumber(tag) == FieldNumber && tag != 0);

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

        var target = _get(to) as IDictionary<TKey, TValue> ?? ThrowHelper.ThrowCannotAdd<IDictionary<TKey, TValue>>(_ownerName, Name, typeof(TDict));
        foreach (var pair in source)
        {
            target[pair.Key] = pair.Value;
        }
    }

    public override void ClearForOverwrite(TOwner owner)
    {
        if (_overwrite && _get(owner) is IDictionary<TKey, TValue> { IsReadOnly: false } map)
        {
            map.Clear();
        }
    }
}
