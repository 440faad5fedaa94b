using System.Diagnostics;
using CacheSerializer.LocalServers;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>The skeleton of every scenario run: start memcached, run each part (a farm mode, a change kind) in turn
/// against it, log a line per part, stop the servers (also on Ctrl+C or a failure), and report what it ran on.</summary>
internal static class ScenarioRunner
{
    /// <summary>Runs the parts of a scenario.</summary>
    /// <typeparam name="TPart">What one part is (a mode, a change kind).</typeparam>
    /// <typeparam name="TResult">What one part measured.</typeparam>
    /// <typeparam name="TReport">The scenario's report.</typeparam>
    /// <param name="settings">The settings, validated here.</param>
    /// <param name="memoryMegabytes">memcached's <c>-m</c> for each server.</param>
    /// <param name="description">The line that says what runs, logged after the servers'.</param>
    /// <param name="parts">The parts, run in this order.</param>
    /// <param name="runPart">Runs one part against the servers' endpoints.</param>
    /// <param name="summary">The line logged after a part.</param>
    /// <param name="report">Makes the report from the results; the run's own fields are filled in here.</param>
    /// <param name="log">Where progress lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current part stops, the rest are skipped, the servers stop.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how) or did not start.</exception>
    public static async Task<TReport> RunAsync<TPart, TResult, TReport>(
        ScenarioSettings settings,
        int memoryMegabytes,
        string description,
        IEnumerable<TPart> parts,
        Func<TPart, string[], Task<TResult>> runPart,
        Func<TResult, string> summary,
        Func<IReadOnlyList<TResult>, TReport> report,
        TextWriter log,
        CancellationToken cancellationToken)
        where TReport : ScenarioReport
    {
        settings.Validate();
        var start = RunStart.Now();
        string arguments = $"-m {memoryMegabytes}";
        using var servers = ServerSet.Start(settings.Nodes, arguments);
        string[] endpoints = [.. servers.Endpoints];
        string serverLine = $"{string.Join(", ", endpoints)} ({servers.Description})";
        log.WriteLine($"memcached: {serverLine}");
        log.WriteLine(description);
        var results = new List<TResult>();
        foreach (TPart part in parts)
        {
            if (cancellationToken.IsCancellationRequested)
            {
                break;
            }

            TResult result = await runPart(part, endpoints).ConfigureAwait(false);
            log.WriteLine(summary(result));
            results.Add(result);
        }

        ScenarioReport made = report(results);
        return (TReport)(made with
        {
            Started = start.Started,
            Finished = DateTimeOffset.UtcNow,
            Machine = RunStart.MachineLine(),
            LoadAverage = start.LoadAverageLine(),
            Servers = serverLine,
        });
    }

    /// <summary>Waits until <paramref name="clock"/> reads <paramref name="at"/> (at once when it has passed): the step
    /// timeline of a scenario that switches web servers one by one (the deploy, the migration).</summary>
    /// <param name="clock">The scenario's clock, started when its timeline began.</param>
    /// <param name="at">The time on that clock to wait for.</param>
    /// <param name="cancellationToken">Ctrl+C.</param>
    /// <returns>The wait.</returns>
    public static async Task WaitUntilAsync(Stopwatch clock, TimeSpan at, CancellationToken cancellationToken)
    {
        // The clock is read once: read twice, it could pass 'at' between the check and the delay (a negative delay).
        TimeSpan wait = at - clock.Elapsed;
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, cancellationToken).ConfigureAwait(false);
        }
    }
}
