using BenchmarkDotNet.Attributes;
using CacheSerializer.Workloads;

namespace CacheSerializer.Benchmarks.Serializers;

/// <summary><see cref="CacheItem"/> (as read from the network) to value, for every contender and workload.</summary>
[MemoryDiagnoser]
public class DeserializeBenchmarks : ContenderBenchmarks
{
    /// <inheritdoc/>
    protected override int Execute(WorkloadRun run) => run.Deserialize();
}
