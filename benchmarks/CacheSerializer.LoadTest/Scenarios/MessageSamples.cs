namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>The first few messages of what went wrong in a scenario's part (errors, corruptions), kept from any thread.</summary>
internal sealed class MessageSamples
{
    private const int MaxSamples = 5;
    private readonly List<string> _samples = [];

    /// <summary>Keeps a message while fewer than five are kept.</summary>
    /// <param name="message">The message.</param>
    public void Add(string message)
    {
        lock (_samples)
        {
            if (_samples.Count < MaxSamples)
            {
                _samples.Add(message);
            }
        }
    }

    /// <summary>Returns the messages kept, in the order they came.</summary>
    /// <returns>The messages.</returns>
    public IReadOnlyList<string> ToList()
    {
        lock (_samples)
        {
            return [.. _samples];
        }
    }
}
