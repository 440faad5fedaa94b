using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LocalServers;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>
/// How a scenario subcommand (<c>farm</c>, <c>deploy</c>, <c>migrate</c>) runs: its settings from the command line (invalid: exit 2),
/// the run against the memcached servers it starts (none to be had: exit 3; Ctrl+C: 130), the report printed as
/// Markdown with each part's samples of what went wrong, and saved, then exit 0 when the report passes its checks
/// (<see cref="ScenarioReport.Passed"/>), 1 when not.
/// </summary>
internal static class ScenarioCommand
{
    /// <summary>Runs one scenario and returns the process exit code.</summary>
    /// <param name="settings">Builds the settings (validated here); throws <see cref="ArgumentException"/> naming a bad option.</param>
    /// <param name="run">Runs the scenario, writing progress to the console.</param>
    /// <param name="markdown">The report as Markdown.</param>
    /// <param name="save">Saves the report; returns the paths written.</param>
    /// <param name="cancellationToken">Cancelled by Ctrl+C.</param>
    public static async Task<int> RunAsync<TSettings, TReport>(
        Func<TSettings> settings,
        Func<TSettings, TextWriter, CancellationToken, Task<TReport>> run,
        Func<TReport, string> markdown,
        Func<TReport, TSettings, IEnumerable<string>> save,
        CancellationToken cancellationToken)
        where TSettings : ScenarioSettings
        where TReport : ScenarioReport
    {
        TSettings valid;
        try
        {
            valid = settings();
            valid.Validate();
        }
        catch (ArgumentException ex)
        {
            await Console.Error.WriteLineAsync($"error: {ex.Message}").ConfigureAwait(false);
            return LoadTestCommand.InvalidOption;
        }

        TReport report;
        try
        {
            report = await run(valid, Console.Out, cancellationToken).ConfigureAwait(false);
        }
        catch (ServerUnavailableException ex)
        {
            return await LoadTestCommand.ServerUnavailableAsync(ex).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return LoadTestCommand.Cancelled;
        }

        Console.WriteLine();
        Console.Write(markdown(report));
        foreach (IScenarioPartResult part in report.PartResults().Where(p => p.Samples.Count > 0))
        {
            Console.WriteLine($"{part.Name}: {string.Join("; ", part.Samples)}");
        }

        foreach (string path in save(report, valid))
        {
            Console.WriteLine($"wrote {path}");
        }

        return cancellationToken.IsCancellationRequested ? LoadTestCommand.Cancelled
            : report.Passed() ? LoadTestCommand.Success
            : LoadTestCommand.ContenderFailed;
    }
}
