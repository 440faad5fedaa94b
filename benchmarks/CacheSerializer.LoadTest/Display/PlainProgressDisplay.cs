using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;

namespace CacheSerializer.LoadTest.Display;

/// <summary>Progress as plain lines every few seconds: for redirected output, CI logs and the tests.</summary>
/// <param name="output">Where the lines go.</param>
/// <param name="interval">Time between two lines.</param>
internal sealed class PlainProgressDisplay(TextWriter output, TimeSpan interval) : IProgressDisplay
{
    /// <inheritdoc/>
    public void Message(string message) => output.WriteLine(message);

    /// <inheritdoc/>
    public async Task<PassResult> TrackAsync(PassProgress progress, Task<PassResult> pass)
    {
        while (await Task.WhenAny(pass, Task.Delay(interval)).ConfigureAwait(false) != pass)
        {
            output.WriteLine(progress.Describe());
        }

        PassResult result = await pass.ConfigureAwait(false);
        output.WriteLine($"{progress.Describe()}: {(result.Completed ? "completed" : "NOT completed: " + result.Failure)}");
        return result;
    }
}
