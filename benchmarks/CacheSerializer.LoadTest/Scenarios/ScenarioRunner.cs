using System.Diagnostics;
using System.Runtime.InteropServices;
using CacheSerializer.LocalServers;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>The skeleton of every run (the main pass, a scenario): open the memcached servers, run each part (a
/// contender's pass, a farm mode, a change kind) in turn against them, log a line per part, stop the servers (also on
/// Ctrl+C, a failure, a closed terminal or a kill), and report what it ran on.</summary>
internal static class ScenarioRunner
{
    /// <summary>Runs the parts of a scenario on servers started here.</summary>
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
    public static Task<TReport> RunAsync<TPart, TResult, TReport>(
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
        return RunAsync(
            () => ServerSet.Start(settings.Nodes, $"-m {memoryMegabytes}"),
            _ => [description],
            parts,
            (part, servers) => runPart(part, [.. servers.Endpoints]),
            summary,
            report,
            log.WriteLine,
            cancellationToken);
    }

    /// <summary>Runs the parts of a run on servers opened by <paramref name="open"/> (started with the run's own
    /// arguments, or given), and stops them at the end; also when the process exits or gets SIGHUP (a terminal closed, a
    /// kill), which end it without running finally blocks, so that no memcached outlives the run.</summary>
    /// <typeparam name="TPart">What one part is (a contender's pass, a mode, a change kind).</typeparam>
    /// <typeparam name="TResult">What one part measured.</typeparam>
    /// <typeparam name="TReport">The run's report.</typeparam>
    /// <param name="open">Opens the servers (<see cref="ServerSet.Open"/>, <see cref="ServerSet.Start"/>); they are disposed here.</param>
    /// <param name="describe">The lines that say what runs, logged after the servers' (they may name a server).</param>
    /// <param name="parts">The parts, run in this order.</param>
    /// <param name="runPart">Runs one part against the servers.</param>
    /// <param name="summary">The line logged after a part, or null when <paramref name="runPart"/> shows its own progress and end.</param>
    /// <param name="report">Makes the report from the results of the parts done; the run's own fields are filled in here.</param>
    /// <param name="log">Where lines go.</param>
    /// <param name="cancellationToken">Ctrl+C: the current part stops, the rest are skipped, the servers stop. A part
    /// that ends in <see cref="OperationCanceledException"/> once it is requested (before it had anything to report)
    /// ends the loop without a result.</param>
    /// <returns>The report.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how) or did not start.</exception>
    public static async Task<TReport> RunAsync<TPart, TResult, TReport>(
        Func<ServerSet> open,
        Func<ServerSet, IEnumerable<string>> describe,
        IEnumerable<TPart> parts,
        Func<TPart, ServerSet, Task<TResult>> runPart,
        Func<TResult, string>? summary,
        Func<IReadOnlyList<TResult>, TReport> report,
        Action<string> log,
        CancellationToken cancellationToken)
        where TReport : ScenarioReport
    {
        var start = RunStart.Now();
        using ServerSet servers = open();
        void StopServers(object? sender, EventArgs e) => servers.Dispose();
        AppDomain.CurrentDomain.ProcessExit += StopServers;
        using var hangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, _ => servers.Dispose());
        try
        {
            string serverLine = $"{string.Join(", ", servers.Endpoints)} ({servers.Description})";
            log($"memcached: {serverLine}");
            foreach (string line in describe(servers))
            {
                log(line);
            }

            IReadOnlyList<TResult> results = await RunPartsAsync(parts, part => runPart(part, servers), summary, log, cancellationToken).ConfigureAwait(false);
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
        finally
        {
            AppDomain.CurrentDomain.ProcessExit -= StopServers;
        }
    }

    /// <summary>Runs the parts in turn until they are done or Ctrl+C: a part is not started once it is requested, and a
    /// part that ends in <see cref="OperationCanceledException"/> then (stopped before it had anything to report) ends
    /// the loop without a result.</summary>
    /// <typeparam name="TPart">What one part is.</typeparam>
    /// <typeparam name="TResult">What one part measured.</typeparam>
    /// <param name="parts">The parts, run in this order.</param>
    /// <param name="runPart">Runs one part.</param>
    /// <param name="summary">The line logged after a part, or null.</param>
    /// <param name="log">Where lines go.</param>
    /// <param name="cancellationToken">Ctrl+C.</param>
    /// <returns>The results of the parts done, in order.</returns>
    public static async Task<IReadOnlyList<TResult>> RunPartsAsync<TPart, TResult>(
        IEnumerable<TPart> parts,
        Func<TPart, Task<TResult>> runPart,
        Func<TResult, string>? summary,
        Action<string> log,
        CancellationToken cancellationToken)
    {
        var results = new List<TResult>();
        foreach (TPart part in parts)
        {
            if (cancellationToken.IsCancellationRequested)
            {
                break;
            }

            TResult result;
            try
            {
                result = await runPart(part).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                break;
            }

            if (summary is not null)
            {
                log(summary(result));
            }

            results.Add(result);
        }

        return results;
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
