namespace CacheSerializer.Workloads;

/// <summary>Whether a workload is an object graph or a single primitive value.</summary>
public enum WorkloadKind
{
    /// <summary>An object graph, stored through a serializer.</summary>
    Object = 0,

    /// <summary>A primitive (number, instant, string, byte array), stored natively where a transcoder can.</summary>
    Primitive = 1,
}
