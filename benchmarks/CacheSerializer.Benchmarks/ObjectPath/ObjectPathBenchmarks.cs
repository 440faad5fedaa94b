using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using CacheSerializer.Workloads;

namespace CacheSerializer.Benchmarks.ObjectPath;

/// <summary>
/// The transcoder's object path against raw protobuf-net on the same model and value (the baseline of each category).
/// Target (issue 16): at most 1.10x raw protobuf-net's time, serialize and deserialize, and at most its allocations plus
/// the payload array.
/// </summary>
/// <remarks>
/// Raw serialize writes through protobuf-net's Stream API into a reused <see cref="MemoryStream"/> (no array of its own); raw deserialize reads the
/// body's memory. The transcoder returns a <see cref="CacheItem"/> whose payload is a new array (type header + body),
/// and reads from the item's memory. The setup checks that the item's body is exactly raw protobuf-net's bytes.
/// "protobuf-net + ToArray" adds the one copy any array-returning API needs: the cost of producing the payload array.
/// Min and Median are shown beside the mean: on a shared machine the minimum is the figure least moved by other processes.
/// </remarks>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
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
        Workload workload = WorkloadCatalog.Get(Workload);
        _run = (ObjectPathRun)Activator.CreateInstance(typeof(ObjectPathRun<>).MakeGenericType(workload.ValueType), workload.Value)!;
    }

    [Benchmark(Baseline = true, Description = "protobuf-net")]
    [BenchmarkCategory("Serialize")]
    public int SerializeRaw() => _run.SerializeRaw();

    [Benchmark(Description = "ProtobufTranscoder")]
    [BenchmarkCategory("Serialize")]
    public int SerializeTranscoder() => _run.SerializeTranscoder();

    // The floor of any API that hands back an array, as ITranscoder must (memcached stores the bytes after the call):
    // protobuf-net into the reused buffer, then one copy into a new array of exactly the body's length.
    [Benchmark(Description = "protobuf-net + ToArray")]
    [BenchmarkCategory("Serialize")]
    public int SerializeRawToArray() => _run.SerializeRawToArray();

    [Benchmark(Baseline = true, Description = "protobuf-net")]
    [BenchmarkCategory("Deserialize")]
    public object? DeserializeRaw() => _run.DeserializeRaw();

    [Benchmark(Description = "ProtobufTranscoder")]
    [BenchmarkCategory("Deserialize")]
    public object? DeserializeTranscoder() => _run.DeserializeTranscoder();
}
