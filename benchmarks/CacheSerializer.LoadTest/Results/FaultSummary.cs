namespace CacheSerializer.LoadTest.Results;

/// <summary>What a killed server did to a pass, from its timeline: hit ratios before, during and after the outage, the
/// seconds in which operations failed, and how soon after the restart they stopped failing.</summary>
internal sealed record FaultSummary
{
    /// <summary>Gets the killed server (<c>host:port</c>).</summary>
    public required string Server { get; init; }

    /// <summary>Gets what happened and when, in words.</summary>
    public required IReadOnlyList<string> Events { get; init; }

    /// <summary>Gets the second of the pass the server was killed in.</summary>
    public double KilledAt { get; init; }

    /// <summary>Gets the second of the pass it was restarted in, or null when the pass ended first.</summary>
    public double? RestartedAt { get; init; }

    /// <summary>Gets the share of gets that hit before the kill.</summary>
    public double HitRatioBefore { get; init; }

    /// <summary>Gets the share of gets that hit while the server was down.</summary>
    public double HitRatioWhileDown { get; init; }

    /// <summary>Gets the share of gets that hit after the restart.</summary>
    public double HitRatioAfter { get; init; }

    /// <summary>Gets the seconds after the kill in which at least one set failed or one operation threw.</summary>
    public int FailingSeconds { get; init; }

    /// <summary>Gets the last second in which a set failed or an operation threw, or null when none did.</summary>
    public int? LastFailingSecond { get; init; }

    /// <summary>Gets how long after the restart the last failure was (0 when none came after it), or null without a restart.</summary>
    public double? RecoveredAfterRestart { get; init; }

    /// <summary>Summarizes a pass's timeline around its fault.</summary>
    /// <param name="server">The killed server.</param>
    /// <param name="events">What happened, in words.</param>
    /// <param name="killedAt">When it was killed (seconds into the pass).</param>
    /// <param name="restartedAt">When it was restarted, or null.</param>
    /// <param name="timeline">The pass's timeline.</param>
    /// <returns>The summary.</returns>
    public static FaultSummary Of(string server, IReadOnlyList<string> events, double killedAt, double? restartedAt, IReadOnlyList<TimelineSecond> timeline)
    {
        int kill = (int)killedAt;
        int restart = restartedAt is double r ? (int)r : int.MaxValue;
        static double Ratio(IEnumerable<TimelineSecond> seconds)
        {
            long hits = seconds.Sum(s => s.Hits);
            long gets = hits + seconds.Sum(s => s.Misses);
            return gets == 0 ? 0 : Math.Round((double)hits / gets, 3);
        }

        TimelineSecond[] failing = [.. timeline.Where(s => s.Second >= kill && s.StoreFailures + s.Errors > 0)];
        int? last = failing.Length == 0 ? null : failing[^1].Second;
        return new FaultSummary
        {
            Server = server,
            Events = events,
            KilledAt = Math.Round(killedAt, 1),
            RestartedAt = restartedAt is null ? null : Math.Round(restartedAt.Value, 1),
            HitRatioBefore = Ratio(timeline.Where(s => s.Second < kill)),
            HitRatioWhileDown = Ratio(timeline.Where(s => s.Second > kill && s.Second < restart)),
            HitRatioAfter = Ratio(timeline.Where(s => s.Second > restart)),
            FailingSeconds = failing.Length,
            LastFailingSecond = last,
            RecoveredAfterRestart = restartedAt is double at ? Math.Round(Math.Max(0, (last ?? 0) + 1 - at), 1) : null,
        };
    }
}
