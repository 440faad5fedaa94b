using BenchmarkDotNet.Attributes;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Serializers;

/// <summary>
/// One benchmark method per contender, BSON (EnyimMemcachedCore's DefaultTranscoder) the baseline, over every workload;
/// the derived classes choose the operation (serialize, deserialize, round trip).
/// </summary>
/// <remarks>
/// Every contender reads through the typed <see cref="ITranscoder.Deserialize{T}"/>: JSON, binary XML and protobuf payloads
/// do not name their type, and the typed path is what a cache API with <c>Get&lt;T&gt;</c> calls anyway.
/// To add a contender: add it to <see cref="ContenderCatalog.All"/>, then one method here, e.g.
/// <c>[Benchmark(Description = "CacheSerializer+Aliases")] public int ThisTranscoderAliases() => Run("CacheSerializer+Aliases");</c>
/// (the Description names the column; a method named <c>CacheSerializer</c> would hide the namespace inside this class).
/// Set CACHESERIALIZER_BENCH_WORKLOADS (comma-separated names, e.g. "RpcMessage,Records1024") to run fewer workloads.
/// </remarks>
public abstract class ContenderBenchmarks
{
    private Dictionary<string, WorkloadRun> _runs = [];
    private WorkloadRun? _current;

    /// <summary>Gets or sets the workload's name (a benchmark parameter).</summary>
    [ParamsSource(nameof(WorkloadNames))]
    public string Workload { get; set; } = "";

    /// <summary>Gets the workload names to run: all of them, or those CACHESERIALIZER_BENCH_WORKLOADS lists.</summary>
    public static IEnumerable<string> WorkloadNames =>
        Environment.GetEnvironmentVariable("CACHESERIALIZER_BENCH_WORKLOADS") is { Length: > 0 } names
            ? names.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(n => WorkloadCatalog.Get(n).Name)
            : WorkloadCatalog.All.Select(w => w.Name);

    /// <summary>Binds the workload to every contender (each serializes it once, so the stored item is ready).</summary>
    [GlobalSetup]
    public void Setup()
    {
        // The switch <EnableUnsafeBinaryFormatterSerialization> writes into runtimeconfig.json: BenchmarkDotNet's generated
        // host project does not inherit that property, so the benchmark sets it before the first BinaryFormatter call.
        AppContext.SetSwitch("System.Runtime.Serialization.EnableUnsafeBinaryFormatterSerialization", true);
        Workload workload = WorkloadCatalog.Get(Workload);
        _runs = ContenderCatalog.All.ToDictionary(c => c.Name, workload.Bind);
        _current = null;
    }

    /// <summary>EnyimMemcachedCore's DefaultTranscoder: BSON for objects, native primitives.</summary>
    /// <returns>A figure from the operation, so it cannot be elided.</returns>
    [Benchmark(Baseline = true, Description = ContenderCatalog.Bson)]
    public int Bson() => Run(ContenderCatalog.Bson);

    /// <summary>Enyim's original DefaultTranscoder: BinaryFormatter for objects.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.BinaryFormatter)]
    public int BinaryFormatter() => Run(ContenderCatalog.BinaryFormatter);

    /// <summary>The production team's original: BinaryFormatter + Deflate for objects.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.DeflateBinaryFormatter)]
    public int DeflateBinaryFormatter() => Run(ContenderCatalog.DeflateBinaryFormatter);

    /// <summary>System.Text.Json, source-generated.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.SystemTextJson)]
    public int SystemTextJson() => Run(ContenderCatalog.SystemTextJson);

    /// <summary>DataContractSerializer with the binary XML writer.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.DataContractBinary)]
    public int DataContractBinary() => Run(ContenderCatalog.DataContractBinary);

    /// <summary>Google.Protobuf generated code on its own messages: the protobuf ceiling.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.GoogleProtobuf)]
    public int GoogleProtobuf() => Run(ContenderCatalog.GoogleProtobuf);

    /// <summary>A copy of the payload bytes: the floor.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.PlainCopy)]
    public int PlainCopy() => Run(ContenderCatalog.PlainCopy);

    /// <summary>MessagePack-CSharp on the peer models, uncompressed.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.MessagePack)]
    public int MessagePack() => Run(ContenderCatalog.MessagePack);

    /// <summary>MessagePack-CSharp on the peer models with its LZ4 block-array compression.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.MessagePackLz4)]
    public int MessagePackLz4() => Run(ContenderCatalog.MessagePackLz4);

    /// <summary>MemoryPack on the peer models.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.MemoryPack)]
    public int MemoryPack() => Run(ContenderCatalog.MemoryPack);

    /// <summary>Raw protobuf-net on the workload classes, with the transcoder's model and no header.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.ProtobufNet)]
    public int ProtobufNet() => Run(ContenderCatalog.ProtobufNet);

    /// <summary>This package's transcoder with its defaults (the type header names the type by its stable name).</summary>
    /// <returns>A figure from the operation.</returns>
    /// <remarks>Not named <c>CacheSerializer</c>: a member of that name would hide the namespace inside this class.</remarks>
    [Benchmark(Description = ContenderCatalog.CacheSerializer)]
    public int ThisTranscoder() => Run(ContenderCatalog.CacheSerializer);

    /// <summary>This package's transcoder with Brotli compression from 1 KiB.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.CacheSerializerCompressed)]
    public int ThisTranscoderBrotli() => Run(ContenderCatalog.CacheSerializerCompressed);

    /// <summary>This package's transcoder with LZ4 from 1 KiB: the recommended compression.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.CacheSerializerLz4)]
    public int ThisTranscoderLz4() => Run(ContenderCatalog.CacheSerializerLz4);

    /// <summary>This package's transcoder with Zstandard (level 1) from 1 KiB.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.CacheSerializerZstandard)]
    public int ThisTranscoderZstd() => Run(ContenderCatalog.CacheSerializerZstandard);

    /// <summary>This package's transcoder with one-byte type aliases for the workload root types.</summary>
    /// <returns>A figure from the operation.</returns>
    [Benchmark(Description = ContenderCatalog.CacheSerializerAliased)]
    public int ThisTranscoderAliases() => Run(ContenderCatalog.CacheSerializerAliased);

    /// <summary>Runs the operation once on a bound workload.</summary>
    /// <param name="run">The workload bound to one contender.</param>
    /// <returns>A figure from the operation.</returns>
    protected abstract int Execute(WorkloadRun run);

    /// <summary>Runs the operation once for the named contender.</summary>
    /// <param name="contender">A name from <see cref="ContenderCatalog.All"/>.</param>
    /// <returns>A figure from the operation.</returns>
    /// <remarks>
    /// BenchmarkDotNet runs one method per process, so after the first call the run is the cached one: the cost per call is
    /// one string comparison that succeeds on the reference check, the same for every contender.
    /// </remarks>
    protected int Run(string contender)
    {
        WorkloadRun? run = _current;
        if (run is null || !string.Equals(run.Contender.Name, contender, StringComparison.Ordinal))
        {
            run = _current = _runs[contender];
        }

        return Execute(run);
    }
}
