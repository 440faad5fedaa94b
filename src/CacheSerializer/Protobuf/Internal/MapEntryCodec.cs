using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>One map entry as a message: key at field 1, value at field 2, each skipped when default (as Google writes them).</summary>
internal sealed class MapEntryCodec<TKey, TValue> : MessageCodec<KeyValuePair<TKey, TValue>>
{
    private readonly ValueCodec<TKey> _key;
    private readonly ValueCodec<TValue> _value;
    private readonly uint _keyTag;
    private readonly uint _valueTag;

    public MapEntryCodec(ValueCodec<TKey> key, ValueCodec<TValue> value)
    {
        _key = key;
        _value = value;
        _keyTag = MakeTag(1, key.WireType);
        _valueTag = MakeTag(2, value.WireType);
    }

    public override bool IsDefault(KeyValuePair<TKey, TValue> value) => false;

    public override int MeasureBody(KeyValuePair<TKey, TValue> value, int depth)
    {
        if (depth > ProtoModel.MaxDepth)
        {
            // typeof(T) only on the failing path: in shared generic code it costs a dictionary lookup.
            ThrowHelper.ThrowTooDeep(typeof(KeyValuePair<TKey, TValue>));
        }
        int size = 0;
        if (!_key.IsDefault(value.Key))
        {
            size += 1 + _key.Measure(value.Key, depth);
        }

        if (!_value.IsDefault(value.Value))
        {
            size += 1 + _value.Measure(value.Value, depth);
        }

        return size;
    }

    public override void WriteBody(ref WriteContext ctx, KeyValuePair<TKey, TValue> value)
    {
        if (!_key.IsDefault(value.Key))
        {
            ctx.WriteTag(_keyTag);
            _key.Write(ref ctx, value.Key);
        }

        if (!_value.IsDefault(value.Value))
        {
            ctx.WriteTag(_valueTag);
            _value.Write(ref ctx, value.Value);
        }
    }

    public override KeyValuePair<TKey, TValue> ReadBody(ref ParseContext ctx, KeyValuePair<TKey, TValue> existing)
    {
        var key = _key.MissingMapKey;
        TValue value = default!;
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            if (tag == _keyTag)
            {
                key = _key.Read(ref ctx, default!);
            }
            else if (tag == _valueTag)
            {
                value = _value.Read(ref ctx, value);
            }
            else if (GetTagWireType(tag) == WireType.EndGroup)
            {
                break;
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
            }
        }

        return new KeyValuePair<TKey, TValue>(key, value);
    }
}
