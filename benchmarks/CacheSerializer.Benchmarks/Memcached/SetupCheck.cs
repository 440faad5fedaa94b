namespace CacheSerializer.Benchmarks.Memcached;

/// <summary>What a benchmark's setup checks before anything is timed: each call does what its name says.</summary>
internal static class SetupCheck
{
    /// <exception cref="InvalidOperationException"><paramref name="condition"/> is false.</exception>
    internal static void That(bool condition, string what)
    {
        if (!condition)
        {
            throw new InvalidOperationException($"setup: {what} did not do what the benchmark measures");
        }
    }
}
