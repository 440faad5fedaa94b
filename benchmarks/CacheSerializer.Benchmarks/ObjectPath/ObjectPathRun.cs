namespace CacheSerializer.Benchmarks.ObjectPath;

/// <summary>Both sides of one workload, typed, so neither pays for a look-up the other does not.</summary>
public abstract class ObjectPathRun
{
    public abstract int SerializeRaw();

    public abstract int SerializeTranscoder();

    public abstract int SerializeRawToArray();

    public abstract object? DeserializeRaw();

    public abstract object? DeserializeTranscoder();
}
