using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using Spectre.Console;

namespace CacheSerializer.LoadTest.Display;

/// <summary>A live Spectre.Console progress bar per pass: operations, errors, corruptions, elapsed and remaining time.</summary>
/// <param name="console">The console.</param>
internal sealed class SpectreProgressDisplay(IAnsiConsole console) : IProgressDisplay
{
    /// <summary>Whether the live display fits: an interactive terminal, and not CI (where a log reads better as lines).</summary>
    /// <returns><see langword="true"/> when the output is a terminal and CI is not set to true.</returns>
    public static bool IsSupported() =>
        !Console.IsOutputRedirected &&
        !string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase) &&
        AnsiConsole.Profile.Capabilities.Interactive;

    /// <inheritdoc/>
    public void Message(string message) => console.WriteLine(message);

    /// <inheritdoc/>
    public async Task<PassResult> TrackAsync(PassProgress progress, Task<PassResult> pass)
    {
        PassResult? result = null;
        await console.Progress()
            .AutoClear(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), new RemainingTimeColumn())
            .StartAsync(async context =>
            {
                ProgressTask task = context.AddTask(Markup.Escape(progress.Contender), maxValue: 1000);
                while (await Task.WhenAny(pass, Task.Delay(250)).ConfigureAwait(false) != pass)
                {
                    task.Description = Describe(progress);
                    task.Value = progress.Fraction * 1000;
                }

                result = await pass.ConfigureAwait(false);
                task.Description = Describe(progress) + (result.Completed ? " [green]completed[/]" : $" [red]{Markup.Escape(result.Failure ?? "failed")}[/]");
                task.Value = 1000;
                task.StopTask();
            })
            .ConfigureAwait(false);
        return result!;
    }

    private static string Describe(PassProgress progress)
    {
        PassCounters c = progress.Counters;
        string errors = c.Errors > 0 ? $"[red]{c.Errors:N0} errors[/]" : "0 errors";
        string corruptions = c.Corruptions > 0 ? $"[red]{c.Corruptions:N0} corruptions[/]" : "0 corruptions";
        return $"{Markup.Escape(progress.Contender),-26} {c.Operations,10:N0} ops  {errors}  {corruptions}";
    }
}
