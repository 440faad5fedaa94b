namespace CacheSerializer.Tests.Docs;

/// <summary>A reference in the documentation or the code that names nothing: where it is written, what it names, and why it does not resolve.</summary>
/// <param name="File">The file the reference is written in, relative to the repository root.</param>
/// <param name="Line">The line it starts on, from 1.</param>
/// <param name="Reference">The reference as written (a link target, a doc and section, a path).</param>
/// <param name="Problem">What is missing.</param>
internal sealed record BrokenReference(string File, int Line, string Reference, string Problem)
{
    public override string ToString() => $"{File}:{Line}: {Reference}: {Problem}";
}
