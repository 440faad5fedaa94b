namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>What every scenario (<c>farm</c>, <c>deploy</c>, <c>migrate</c>) is run with: a farm of web servers with callers each, on
/// local memcached servers it starts, a seed, and where the results go. Each scenario's settings add their own.</summary>
internal abstract record ScenarioSettings
{
    /// <summary>Sets the values in which the scenarios' documented runs differ.</summary>
    /// <param name="clients">The documented run's <see cref="Clients"/>.</param>
    /// <param name="callersPerClient">The documented run's <see cref="CallersPerClient"/>.</param>
    /// <param name="seed">The documented run's <see cref="Seed"/>.</param>
    /// <param name="nodes">The documented run's <see cref="Nodes"/>.</param>
    private protected ScenarioSettings(int clients, int callersPerClient, ulong seed, int nodes = 1)
    {
        Clients = clients;
        CallersPerClient = callersPerClient;
        Seed = seed;
        Nodes = nodes;
    }

    /// <summary>Gets the number of web servers: independent <c>MemcachedClient</c> instances, each with its own connections.</summary>
    public int Clients { get; init; }

    /// <summary>Gets the concurrent callers on each web server (requests in flight), each in a loop.</summary>
    public int CallersPerClient { get; init; }

    /// <summary>Gets the number of local memcached servers to start; keys are spread by the client's ketama.</summary>
    /// <value>1.</value>
    public int Nodes { get; init; }

    /// <summary>Gets the seed of every caller's choice of keys.</summary>
    public ulong Seed { get; init; }

    /// <summary>Gets the directory where the JSON and Markdown results go.</summary>
    /// <value>./loadtest-results.</value>
    public string OutputDirectory { get; init; } = "loadtest-results";

    /// <summary>Gets a value indicating whether this is the short mode.</summary>
    public bool Short { get; init; }

    /// <summary>Checks every value, naming the offending option.</summary>
    /// <exception cref="ArgumentException">A value is out of range.</exception>
    public void Validate()
    {
        Require(Clients is >= 1 and <= 64, "--clients", $"is {Clients}; it must be between 1 and 64");
        Require(CallersPerClient is >= 1 and <= 4096, "--callers", $"is {CallersPerClient}; it must be between 1 and 4,096");
        ValidateScenario();
        Require(Nodes is >= 1 and <= 16, "--nodes", $"is {Nodes}; it must be between 1 and 16");
        Require(OutputDirectory.Length > 0, "--output", "is empty");
    }

    /// <summary>Checks the scenario's own values, naming the offending option (with <see cref="Require"/>).</summary>
    /// <exception cref="ArgumentException">A value is out of range.</exception>
    protected abstract void ValidateScenario();

    /// <summary>Throws unless <paramref name="condition"/> holds: "<c>{option} {problem}.</c>".</summary>
    /// <param name="condition">What must hold.</param>
    /// <param name="option">The option, as on the command line.</param>
    /// <param name="problem">What is wrong with its value.</param>
    /// <exception cref="ArgumentException">It does not hold.</exception>
    protected static void Require(bool condition, string option, string problem)
    {
        if (!condition)
        {
            throw new ArgumentException($"{option} {problem}.");
        }
    }
}
