namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Waits for a condition rather than for a fixed time (docs/contributing.md, "Repeated runs": a fixed
/// sleep standing for a condition): the condition is checked every 10 ms, and the test fails after <see cref="Bound.NotStuck"/>.</summary>
public static class Poll
{
    /// <summary>Waits until <paramref name="condition"/> holds; fails naming <paramref name="what"/> after <see cref="Bound.NotStuck"/>.</summary>
    public static Task UntilAsync(Func<bool> condition, string what) => UntilAsync(() => Task.FromResult(condition()), what);

    /// <summary>Waits until <paramref name="condition"/> (which may call the server) holds; fails naming
    /// <paramref name="what"/> after <see cref="Bound.NotStuck"/>.</summary>
    public static async Task UntilAsync(Func<Task<bool>> condition, string what)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(clock.Elapsed < Bound.NotStuck, $"waited {Bound.NotStuck.TotalSeconds} s for: {what}");
            await Task.Delay(10);
        }
    }
}
