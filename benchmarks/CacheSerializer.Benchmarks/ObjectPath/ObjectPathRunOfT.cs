using ProtoBuf.Meta;

namespace CacheSerializer.Benchmarks.ObjectPath;

/// <summary>One workload of type <typeparamref name="T"/>: the transcoder's default model, shared by both sides.</summary>
/// <remarks>
/// Raw serialize uses protobuf-net's Stream API into a reused <see cref="MemoryStream"/>: on nested graphs it is 1.5-3x
/// faster than its IBufferWriter API (which measures every nested message first), so it is the raw figure to beat.
/// Until issue 18 both sides used the IBufferWriter API.
/// </remarks>
/// <typeparam name="T">The workload's type.</typeparam>
public sealed class ObjectPathRun<T> : ObjectPathRun
{
    private readonly RuntimeTypeModel _model = ProtobufTranscoder.CreateModel();
    private readonly MemoryStream _buffer = new(64 * 1024);
    private readonly ProtobufTranscoder _transcoder;
    private readonly T _value;
    private readonly byte[] _body;
    private readonly CacheItem _item;

    public ObjectPathRun(T value)
    {
        _value = value;
        // Compression off: the object path is measured against raw protobuf-net, which compresses nothing.
        _transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = _model, Compression = TranscoderCompression.None });
        _item = _transcoder.Serialize(value);
        _model.Serialize(_buffer, value);
        _body = _buffer.ToArray();
        if (!_item.Data.AsSpan(_item.Data.Count - _body.Length).SequenceEqual(_body) || _item.Data.Count - _body.Length != 5)
        {
            throw new InvalidOperationException($"{typeof(T).Name}: the item's body is not raw protobuf-net's bytes; the benchmark would compare unequal work.");
        }
    }

    public override int SerializeRaw()
    {
        _buffer.SetLength(0);
        _model.Serialize(_buffer, _value);
        return (int)_buffer.Length;
    }

    public override int SerializeTranscoder() => _transcoder.Serialize(_value).Data.Count;

    public override int SerializeRawToArray()
    {
        _buffer.SetLength(0);
        _model.Serialize(_buffer, _value);
        return _buffer.ToArray().Length;
    }

    public override object? DeserializeRaw() => _model.Deserialize<T>((ReadOnlyMemory<byte>)_body);

    public override object? DeserializeTranscoder() => _transcoder.Deserialize<T>(_item);
}
