using System.Buffers;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using CacheSerializer.Workloads;
using ProtoBuf.Meta;

namespace CacheSerializer.Benchmarks.ObjectPath;

/// <summary>
/// The transcoder's object path against raw protobuf-net on the same model and value (the baseline of each category).
/// Target (issue 16): at most 1.10x raw protobuf-net's time, serialize and deserialize, and at most its allocations plus
/// the payload array.
/// </summary>
/// <remarks>
/// Raw serialize writes into a reused <see cref="ArrayBufferWriter{T}"/> (no array of its own); raw deserialize reads the
/// body's memory. The transcoder returns a <see cref="CacheItem"/> whose payload is a new array (type header + body),
/// and reads from the item's memory. The setup checks that the item's body is exactly raw protobuf-net's bytes.
/// </remarks>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class ObjectPathBenchmarks
{
    private ObjectPathRun _run = null!;

    /// <summary>Gets or sets the workload (rpc message, records N = 1/32/1024, folders, large object).</summary>
    [Params("RpcMessage", "Records1", "Records32", "Records1024", "Folders", "LargeObject")]
    public string Workload { get; set; } = "RpcMessage";

    [GlobalSetup]
    public void Setup()
    {
        var workload = WorkloadCatalog.Get(Workload);
        _run = (ObjectPathRun)Activator.CreateInstance(typeof(ObjectPathRun<>).MakeGenericType(workload.ValueType), workload.Value)!;
    }

    [Benchmark(Baseline = true, Description = "protobuf-net")]
    [BenchmarkCategory("Serialize")]
    public int SerializeRaw() => _run.SerializeRaw();

    [Benchmark(Description = "ProtobufTranscoder")]
    [BenchmarkCategory("Serialize")]
    public int SerializeTranscoder() => _run.SerializeTranscoder();

    [Benchmark(Baseline = true, Description = "protobuf-net")]
    [BenchmarkCategory("Deserialize")]
    public object? DeserializeRaw() => _run.DeserializeRaw();

    [Benchmark(Description = "ProtobufTranscoder")]
    [BenchmarkCategory("Deserialize")]
    public object? DeserializeTranscoder() => _run.DeserializeTranscoder();
}

/// <summary>Both sides of one workload, typed, so neither pays for a look-up the other does not.</summary>
public abstract class ObjectPathRun
{
    public abstract int SerializeRaw();

    public abstract int SerializeTranscoder();

    public abstract object? DeserializeRaw();

    public abstract object? DeserializeTranscoder();
}

/// <summary>One workload of type <typeparamref name="T"/>: the transcoder's default model, shared by both sides.</summary>
/// <typeparam name="T">The workload's type.</typeparam>
public sealed class ObjectPathRun<T> : ObjectPathRun
{
    private readonly RuntimeTypeModel _model = ProtobufTranscoder.CreateModel();
    private readonly ArrayBufferWriter<byte> _buffer = new(64 * 1024);
    private readonly ProtobufTranscoder _transcoder;
    private readonly T _value;
    private readonly byte[] _body;
    private readonly CacheItem _item;

    public ObjectPathRun(T value)
    {
        _value = value;
        _transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Model = _model });
        _item = _transcoder.Serialize(value);
        _model.Serialize(_buffer, value);
        _body = _buffer.WrittenSpan.ToArray();
        if (!_item.Data.AsSpan(_item.Data.Count - _body.Length).SequenceEqual(_body) || _item.Data.Count - _body.Length != 5)
        {
            throw new InvalidOperationException($"{typeof(T).Name}: the item's body is not raw protobuf-net's bytes; the benchmark would compare unequal work.");
        }
    }

    public override int SerializeRaw()
    {
        _buffer.ResetWrittenCount();
        _model.Serialize(_buffer, _value);
        return _buffer.WrittenCount;
    }

    public override int SerializeTranscoder() => _transcoder.Serialize(_value).Data.Count;

    public override object? DeserializeRaw() => _model.Deserialize<T>((ReadOnlyMemory<byte>)_body);

    public override object? DeserializeTranscoder() => _transcoder.Deserialize<T>(_item);
}
