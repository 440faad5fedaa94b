namespace CacheSerializer.LoadTest.Deploy;

/// <summary>The counts every caller adds to, per phase, and the phase the deploy is in.</summary>
internal sealed class DeployTally
{
    private const int MaxSamples = 5;
    private const int Counters = 7;
    private const int Hits = 0, Misses = 1, Unreadable = 2, OtherBuild = 3, Wrong = 4, Errors = 5, Factory = 6;

    private readonly long[] _counts = new long[3 * Counters];
    private readonly List<string> _samples = [];
    private int _phase;

    /// <summary>Gets or sets the phase the deploy is in; a read counts in the phase it started in.</summary>
    public DeployPhase Phase
    {
        get => (DeployPhase)Volatile.Read(ref _phase);
        set => Volatile.Write(ref _phase, (int)value);
    }

    /// <summary>Counts a hit: right (null problem), the other build's value, or wrong (the message).</summary>
    public void Hit(DeployPhase phase, bool otherBuild, string? wrong)
    {
        Add(phase, Hits);
        if (otherBuild)
        {
            Add(phase, OtherBuild);
        }

        if (wrong is not null)
        {
            Add(phase, Wrong);
            Sample(wrong);
        }
    }

    /// <summary>Counts a miss, and whether the harness caught it as an unreadable item the client threw for.</summary>
    public void Miss(DeployPhase phase, bool unreadableCaught)
    {
        Add(phase, Misses);
        if (unreadableCaught)
        {
            Add(phase, Unreadable);
        }
    }

    /// <summary>Counts a factory call.</summary>
    public void FactoryCall(DeployPhase phase) => Add(phase, Factory);

    /// <summary>Counts an exception that reached the web server's code.</summary>
    public void Error(DeployPhase phase, string message)
    {
        Add(phase, Errors);
        Sample(message);
    }

    /// <summary>Returns the result of a phase.</summary>
    public DeployPhaseResult Result(DeployPhase phase)
    {
        long Get(int counter) => Interlocked.Read(ref _counts[((int)phase * Counters) + counter]);
        return new DeployPhaseResult
        {
            Phase = phase.ToString().ToLowerInvariant(),
            Reads = Get(Hits) + Get(Misses),
            Hits = Get(Hits),
            Misses = Get(Misses),
            UnreadableCaught = Get(Unreadable),
            OtherBuildValues = Get(OtherBuild),
            WrongValues = Get(Wrong),
            Errors = Get(Errors),
            FactoryCalls = Get(Factory),
        };
    }

    /// <summary>Returns the samples of errors and wrong values.</summary>
    public IReadOnlyList<string> Samples()
    {
        lock (_samples)
        {
            return [.. _samples];
        }
    }

    private void Add(DeployPhase phase, int counter) => Interlocked.Increment(ref _counts[((int)phase * Counters) + counter]);

    private void Sample(string message)
    {
        lock (_samples)
        {
            if (_samples.Count < MaxSamples)
            {
                _samples.Add(message);
            }
        }
    }
}
