using System.Globalization;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// What mapping the options into <see cref="ClientSettings"/> produces besides the settings: every problem (each
/// naming the property, what is wrong and the fix) and every setting in words, in mapping order. The options'
/// <c>ToString</c> and the client's start-up log are these words, so a new option mapped once is checked, described
/// and logged.
/// </summary>
internal sealed class SettingsMap
{
    private readonly List<(string Name, string Value)> _described = [];

    /// <param name="validates">False to describe only (the options' <c>ToString</c>): nothing is checked or loaded.</param>
    internal SettingsMap(bool validates)
    {
        Validates = validates;
    }

    /// <summary>Gets a value indicating whether the map checks values and loads what they name (files, certificates).</summary>
    internal bool Validates { get; }

    /// <summary>Gets the problems found so far, in mapping order.</summary>
    internal List<MemcachedConfigurationException> Problems { get; } = [];

    /// <summary>Takes a setting's value, describing it (as <paramref name="shown"/>, or its invariant text) and, when
    /// validating, adding the problem <paramref name="check"/> finds.</summary>
    internal T Take<T>(string name, T value, Func<T, string?>? check = null, string? shown = null)
    {
        _described.Add((name, shown ?? Convert.ToString(value, CultureInfo.InvariantCulture) ?? "(none)"));
        if (Validates && check?.Invoke(value) is { } problem)
        {
            Problem(name, problem);
        }

        return value;
    }

    /// <summary>A count between <paramref name="min"/> and <paramref name="max"/>.</summary>
    internal int Range(string name, int value, int min, int max) =>
        Take(name, value, v => v < min || v > max ? $"is {v}; it must be between {min} and {max}" : null);

    /// <summary>A duration above zero and at most a day.</summary>
    internal TimeSpan Duration(string name, TimeSpan value) =>
        Take(name, value, static v => v <= TimeSpan.Zero || v > TimeSpan.FromDays(1)
            ? $"is {v}; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02)"
            : null);

    /// <summary>A defined value of <typeparamref name="TEnum"/>; <paramref name="allowed"/> names them for the fix.</summary>
    internal TEnum Choice<TEnum>(string name, TEnum value, string allowed)
        where TEnum : struct, Enum =>
        Take(name, value, v => Enum.IsDefined(v) ? null : $"is {Convert.ToInt64(v, CultureInfo.InvariantCulture)}; use {allowed}");

    /// <summary>Adds a problem of a setting (when validating).</summary>
    internal void Problem(string name, string text)
    {
        if (Validates)
        {
            Problems.Add(ThrowHelper.ClientOptionProblem(name, text));
        }
    }

    /// <summary>The settings in words: <c>Name = value</c>, comma-separated, in mapping order.</summary>
    internal string Describe() => string.Join(", ", _described.Select(static d => $"{d.Name} = {d.Value}"));
}
