using System.Diagnostics;
using System.Globalization;

namespace CacheSerializer.LoadTest.Checking;

/// <summary>The last writes of each key (which web server, what, with which result, when), so that a stale value is
/// reported with the writes that explain it.</summary>
internal sealed class KeyTrace
{
    private const int Kept = 16;

    private readonly long _start = Stopwatch.GetTimestamp();
    private readonly Queue<string>[] _events;

    /// <summary>Creates the trace of <paramref name="keys"/> keys.</summary>
    /// <param name="keys">The number of keys.</param>
    public KeyTrace(int keys)
    {
        _events = new Queue<string>[keys];
        for (int i = 0; i < keys; i++)
        {
            _events[i] = new Queue<string>(Kept);
        }
    }

    /// <summary>Gets the time since the trace started, in milliseconds (to stamp a read with).</summary>
    public double Now => Stopwatch.GetElapsedTime(_start).TotalMilliseconds;

    /// <summary>Records an event of a key, stamped now.</summary>
    /// <param name="key">The key's index.</param>
    /// <param name="what">What happened.</param>
    /// <param name="started">When it started (<see cref="Now"/>), or null.</param>
    public void Add(int key, string what, double? started = null)
    {
        string line = started is double s
            ? string.Create(CultureInfo.InvariantCulture, $"[{s:F1}-{Now:F1} ms] {what}")
            : string.Create(CultureInfo.InvariantCulture, $"[{Now:F1} ms] {what}");
        Queue<string> events = _events[key];
        lock (events)
        {
            if (events.Count == Kept)
            {
                _ = events.Dequeue();
            }

            events.Enqueue(line);
        }
    }

    /// <summary>Returns the key's last events, oldest first.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The events, separated by "; ".</returns>
    public string Of(int key)
    {
        Queue<string> events = _events[key];
        lock (events)
        {
            return string.Join("; ", events);
        }
    }
}
