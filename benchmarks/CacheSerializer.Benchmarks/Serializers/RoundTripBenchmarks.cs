using BenchmarkDotNet.Attributes;
using CacheSerializer.Workloads;

namespace CacheSerializer.Benchmarks.Serializers;

/// <summary>Serialize then deserialize what was written, the cost a set and a get pay together.</summary>
[MemoryDiagnoser]
public class RoundTripBenchmarks : ContenderBenchmarks
{
    /// <inheritdoc/>
    protected override int Execute(WorkloadRun run) => run.RoundTrip();
}
