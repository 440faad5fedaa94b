namespace CacheSerializer.LoadTest.Migrate;

/// <summary>One line of the migration's verdict: a target of the Enyim-shaped path (passed or failed), or a figure of
/// the contrast, reported as measured.</summary>
/// <param name="Path">The path it is about.</param>
/// <param name="Name">What is checked or shown.</param>
/// <param name="Figure">The figures it rests on, as printed.</param>
/// <param name="Passed">Whether the target is met; null for a figure only reported.</param>
internal sealed record MigrateCheck(string Path, string Name, string Figure, bool? Passed)
{
    /// <summary>Gets the verdict word: PASS, FAIL, or measured.</summary>
    public string Verdict => Passed switch { true => "PASS", false => "FAIL", null => "measured" };
}
