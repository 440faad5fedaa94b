namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>One read's factory: reads the row's version (the query's snapshot), counts the call against (key, version,
/// build) in the phase the read began in, then takes the query's time; says whether it ran, so that a read that ran
/// none is a hit.</summary>
/// <param name="truth">The source of truth.</param>
/// <param name="key">The row.</param>
/// <param name="time">How long the query takes.</param>
/// <param name="tally">The phase the read began in.</param>
/// <param name="build">The build of the web server that reads.</param>
internal sealed class HybridFactory(SourceOfTruth truth, int key, TimeSpan time, HybridPhaseTally tally, int build)
{
    private int _ran;

    /// <summary>Gets the row.</summary>
    public int Key => key;

    /// <summary>Gets a value indicating whether the factory ran.</summary>
    public bool Ran => Volatile.Read(ref _ran) != 0;

    /// <summary>Runs the query.</summary>
    /// <returns>The version read.</returns>
    public async Task<int> RunAsync()
    {
        Volatile.Write(ref _ran, 1);
        int version = truth.Version(key);
        tally.FactoryCall(key, version, build);
        await Task.Delay(time, CancellationToken.None).ConfigureAwait(false);
        return version;
    }
}
