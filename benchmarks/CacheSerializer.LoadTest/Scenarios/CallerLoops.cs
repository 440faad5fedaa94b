namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>
/// The callers of one web server of a scenario: each its own loop on the thread pool, with a random number generator
/// seeded from the web server's seed and the caller's number, until <see cref="StopAsync"/>.
/// </summary>
internal sealed class CallerLoops
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task[] _loops;

    /// <summary>Starts <paramref name="count"/> callers running <paramref name="loop"/>.</summary>
    /// <param name="count">The number of callers.</param>
    /// <param name="seed">The web server's seed; caller i's generator is seeded with (seed, i).</param>
    /// <param name="loop">One caller's loop: its generator, and the token that ends it when the web server stops.</param>
    public CallerLoops(int count, int seed, Func<Random, CancellationToken, Task> loop)
    {
        CancellationToken stop = _stop.Token;
        _loops = [.. Enumerable.Range(0, count).Select(i =>
        {
            var random = new Random(HashCode.Combine(seed, i));
            return Task.Run(() => loop(random, stop), CancellationToken.None);
        })];
    }

    /// <summary>Stops the callers (each finishes or abandons its request) and waits for them.</summary>
    /// <returns>The stop.</returns>
    public async Task StopAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await Task.WhenAll(_loops).ConfigureAwait(false);
        _stop.Dispose();
    }
}
