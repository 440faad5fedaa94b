using BenchmarkDotNet.Attributes;
using CacheSerializer.Workloads;

namespace CacheSerializer.Benchmarks.Serializers;

/// <summary>Value to <see cref="CacheItem"/>, for every contender and workload.</summary>
[MemoryDiagnoser]
public class SerializeBenchmarks : ContenderBenchmarks
{
    /// <inheritdoc/>
    protected override int Execute(WorkloadRun run) => run.Serialize();
}
