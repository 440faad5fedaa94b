using System.Diagnostics;

namespace CacheSerializer.LoadTest.Running;

/// <summary>Where a pass stands, for the progress display: its counters, its clock, and how much is left.</summary>
/// <param name="contender">The contender's name.</param>
/// <param name="counters">The pass's counters.</param>
/// <param name="duration">The pass's length when it runs for a time.</param>
/// <param name="operations">The pass's operation count when it runs for a count; null for a time.</param>
internal sealed class PassProgress(string contender, PassCounters counters, TimeSpan duration, long? operations)
{
    private readonly Stopwatch _clock = new();

    /// <summary>Gets the contender's name.</summary>
    public string Contender { get; } = contender;

    /// <summary>Gets the counters.</summary>
    public PassCounters Counters { get; } = counters;

    /// <summary>Gets the time since the users started.</summary>
    public TimeSpan Elapsed => _clock.Elapsed;

    /// <summary>Gets the share done, from 0 to 1.</summary>
    public double Fraction => Math.Clamp(
        operations is long count ? (double)Counters.Operations / count : Elapsed / duration, 0, 1);

    /// <summary>Gets the time left: exact for a timed pass, estimated from the rate so far for a counted one.</summary>
    public TimeSpan Remaining
    {
        get
        {
            if (operations is null)
            {
                return duration > Elapsed ? duration - Elapsed : TimeSpan.Zero;
            }

            double fraction = Fraction;
            return fraction <= 0 ? TimeSpan.Zero : Elapsed * ((1 - fraction) / fraction);
        }
    }

    /// <summary>Gets a value indicating whether the pass has reached its time or count.</summary>
    public bool Done => operations is long count ? Counters.Operations >= count : Elapsed >= duration;

    /// <summary>Starts the clock when the users start.</summary>
    public void Start() => _clock.Start();

    /// <summary>Stops the clock when the last user has stopped.</summary>
    public void Stop() => _clock.Stop();

    /// <summary>Returns one plain line: operations, errors, corruptions, elapsed and remaining time.</summary>
    /// <returns>The line.</returns>
    public string Describe() => string.Create(
        System.Globalization.CultureInfo.InvariantCulture,
        $"{Contender}: {Counters.Operations:N0} ops, {Counters.Errors:N0} errors, {Counters.Corruptions:N0} corruptions, {Elapsed.TotalSeconds:0.0} s elapsed, {Remaining.TotalSeconds:0.0} s remaining");
}
