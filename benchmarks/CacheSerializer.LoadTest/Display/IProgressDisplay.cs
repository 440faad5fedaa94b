using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;

namespace CacheSerializer.LoadTest.Display;

/// <summary>Shows a pass while it runs, and the messages of the run.</summary>
internal interface IProgressDisplay
{
    /// <summary>Shows a line of text.</summary>
    /// <param name="message">The text (plain, no markup).</param>
    void Message(string message);

    /// <summary>Shows <paramref name="progress"/> until <paramref name="pass"/> ends, and returns its result.</summary>
    /// <param name="progress">The pass's counters and clock.</param>
    /// <param name="pass">The running pass.</param>
    /// <returns>The pass's result.</returns>
    Task<PassResult> TrackAsync(PassProgress progress, Task<PassResult> pass);
}
