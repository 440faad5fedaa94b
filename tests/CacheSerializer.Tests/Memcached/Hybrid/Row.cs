namespace CacheSerializer.Tests.Memcached.Hybrid;

/// <summary>A database row: its version, and how many times the factory read it.</summary>
internal sealed class Row
{
    private int _version;
    private int _reads;

    public int Reads => Volatile.Read(ref _reads);

    public ValueTask<string> Read(CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _reads);
        return ValueTask.FromResult($"v{Volatile.Read(ref _version)}");
    }

    public void Update() => Interlocked.Increment(ref _version);
}
