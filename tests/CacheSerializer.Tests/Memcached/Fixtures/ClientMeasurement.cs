namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>One measurement of the client's meter.</summary>
/// <param name="Instrument">The instrument's name.</param>
/// <param name="Unit">The instrument's unit.</param>
/// <param name="Value">The value recorded (a count, a byte count or seconds).</param>
/// <param name="Tags">The tags recorded with it.</param>
public sealed record ClientMeasurement(string Instrument, string? Unit, double Value, IReadOnlyDictionary<string, object?> Tags)
{
    /// <summary>Returns the value of tag <paramref name="name"/>, or null when the measurement has none.</summary>
    public object? Tag(string name) => Tags.GetValueOrDefault(name);
}
