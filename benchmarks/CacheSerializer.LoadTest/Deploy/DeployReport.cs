namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Everything a rolling-deploy run measured, with what it ran on: the JSON file is this record.</summary>
internal sealed record DeployReport
{
    /// <summary>Gets when the run started (UTC).</summary>
    public DateTimeOffset Started { get; init; }

    /// <summary>Gets when the run ended (UTC).</summary>
    public DateTimeOffset Finished { get; init; }

    /// <summary>Gets the machine line: runtime, OS, CPU model and cores.</summary>
    public required string Machine { get; init; }

    /// <summary>Gets the 1-minute load average when the run started and when it ended.</summary>
    public required string LoadAverage { get; init; }

    /// <summary>Gets the settings of the run.</summary>
    public required DeploySettings Settings { get; init; }

    /// <summary>Gets the memcached servers the run started.</summary>
    public required string Servers { get; init; }

    /// <summary>Gets one result per change kind, in the order run.</summary>
    public required IReadOnlyList<DeployKindResult> Kinds { get; init; }
}
