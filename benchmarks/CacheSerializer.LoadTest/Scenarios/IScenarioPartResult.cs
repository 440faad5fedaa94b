namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>What a scenario checks of each of its parts (a farm mode, a change kind): the part passes with no error,
/// no corruption and no lost write (docs/loadtest.md, "Nothing wrong goes unseen").</summary>
internal interface IScenarioPartResult
{
    /// <summary>Gets the part's name (the mode, the change kind).</summary>
    string Name { get; }

    /// <summary>Gets a few messages of what went wrong: errors, corruptions, lost writes.</summary>
    IReadOnlyList<string> Samples { get; }

    /// <summary>Gets the exceptions that reached the web servers' code.</summary>
    long Errors { get; }

    /// <summary>Gets the corruptions: wrong values, and unreadable items outside a deliberate contract change.</summary>
    long Corruptions { get; }

    /// <summary>Gets the lost writes, or null when memcached evicted (then a miss proves nothing).</summary>
    long? LostWrites { get; }
}
