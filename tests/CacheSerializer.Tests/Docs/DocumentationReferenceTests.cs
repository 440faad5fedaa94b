namespace CacheSerializer.Tests.Docs;

/// <summary>
/// Every reference resolves (issue 29): the links of README.md, benchmarks/README.md and docs/, the docs and sections the
/// code names, and the repository paths the docs write. A file moved or a heading renamed fails here, with every stale
/// reference to it by file and line.
/// </summary>
public sealed class DocumentationReferenceTests
{
    [Fact]
    public void Links_ReadmeAndDocs_EveryFileAndAnchorExists()
    {
        AssertResolved(Repository().CheckLinks(), "links in README.md, benchmarks/README.md and docs/ (file or #anchor missing)");
    }

    [Fact]
    public void DocReferences_CodeCommentsAndStrings_EveryDocAndQuotedSectionExists()
    {
        AssertResolved(Repository().CheckCodeReferences(), "docs and sections named in .cs files of src/, tests/ and benchmarks/");
    }

    [Fact]
    public void BacktickedPaths_ReadmeAndDocs_EveryRepositoryPathExists()
    {
        AssertResolved(Repository().CheckBacktickedPaths(), "paths in backticks in README.md, benchmarks/README.md and docs/");
    }

    [Theory]
    [InlineData("Failure policy", "failure-policy")]
    [InlineData("Options (`MemcachedClientOptions`)", "options-memcachedclientoptions")]
    [InlineData("Run of 2026-11-25 (issue 25): ours, StackExchange.Redis and memcaslap", "run-of-2026-11-25-issue-25-ours-stackexchangeredis-and-memcaslap")]
    [InlineData("Application codecs (`0xC620`-`0xC67F`)", "application-codecs-0xc620-0xc67f")]
    [InlineData("Benchmarks: a [linked](other.md) word, snake_case kept", "benchmarks-a-linked-word-snake_case-kept")]
    [InlineData("Größe  über alles", "größe--über-alles")]
    public void Slug_Heading_IsGitHubsAnchor(string heading, string anchor)
    {
        Assert.Equal(anchor, MarkdownDocument.Slug(heading));
    }

    [Fact]
    public void Checker_PlantedBrokenReferences_ReportsEachWithFileAndLine()
    {
        // The checker reads this file too: the planted references say {docs} for the folder, so they are not taken for
        // references of this repository.
        string root = Directory.CreateTempSubdirectory("doc-refs-").FullName;
        try
        {
            Plant(root, DocumentationReferences.RootMarker, "");
            Plant(root, ".gitignore", "bin/\nBenchmarkDotNet.Artifacts/\n");
            Plant(root, "{docs}/guide.md", """
                # Guide

                ## Setup and run

                ## Notes

                ## Notes

                ## Farm scenario: one call per expiry (issue 17)

                Code: `src/Lib/Present.cs`, `Lib/Present.cs`, `Lib/Present`, `Lib/`, `src/Lib/Absent.cs`,
                `Lib/Absent.cs`, `Nowhere/`, `Lib/AbsentType`, `src/Lib/Present.cs:12`, `BenchmarkDotNet.Artifacts/results/`,
                `/tmp`, `<name>/x.cs`, `a b/c.cs`.

                [up](../README.md#planted) [self](#notes-1) [missing self](#notes-2)
                """);
            Plant(root, "{docs}/benchmarks/record.md", """
                A record of its day: `Old/Gone.cs` is not checked, [its links](../guide.md#gone) are.
                """);
            Plant(root, "README.md", """
                # Planted

                See [the guide]({docs}/guide.md), [setup]({docs}/guide.md#setup-and-run),
                [gone]({docs}/missing.md) and [a lost section]({docs}/guide.md#no-such-heading).
                [web](https://example.com/x.md) [folder](src/Lib/) [defined]

                ```markdown
                [in a fence](nowhere.md) `src/Fenced.cs`
                ```

                [defined]: {docs}/guide.md#farm-scenario-one-call-per-expiry-issue-17
                [undefined]: {docs}/undefined.md
                """);
            Plant(root, "src/Lib/Present.cs", """
                namespace Lib;

                /// <summary>The farm ({docs}/guide.md, "Farm scenario"), the start ({docs}/guide.md, "Setup and
                /// run" and "Notes"), and ({docs}/guide.md, "The farm scenario").</summary>
                internal static class Present
                {
                    // See {docs}/missing.md, and {docs}/guide.md ("Setup") for the rest.
                    public const string Message = "see ({docs}/guide.md, \"Lost\"); {docs}/guide.md is the guide.";
                }
                """);
            Plant(root, "src/Lib/bin/Debug/Generated.cs", "// {docs}/generated.md");

            var checker = new DocumentationReferences(root);

            Assert.Equal(
                [
                    "README.md:4: {docs}/missing.md: no such file or folder ({docs}/missing.md)",
                    "README.md:4: {docs}/guide.md#no-such-heading: no heading with anchor #no-such-heading in {docs}/guide.md",
                    "README.md:12: {docs}/undefined.md: no such file or folder ({docs}/undefined.md)",
                    "{docs}/benchmarks/record.md:1: ../guide.md#gone: no heading with anchor #gone in {docs}/guide.md",
                    "{docs}/guide.md:15: #notes-2: no heading with anchor #notes-2 in {docs}/guide.md",
                ],
                Lines(checker.CheckLinks()));
            Assert.Equal(
                [
                    "src/Lib/Present.cs:4: {docs}/guide.md, \"The farm scenario\": no such heading in {docs}/guide.md",
                    "src/Lib/Present.cs:7: {docs}/missing.md: no such file",
                    "src/Lib/Present.cs:7: {docs}/guide.md, \"Setup\": no such heading in {docs}/guide.md",
                    "src/Lib/Present.cs:8: {docs}/guide.md, \"Lost\": no such heading in {docs}/guide.md",
                ],
                Lines(checker.CheckCodeReferences()));
            Assert.Equal(
                [
                    "{docs}/guide.md:11: src/Lib/Absent.cs: no such file or folder from the repository root",
                    "{docs}/guide.md:12: Lib/Absent.cs: no path of the repository ends with Lib/Absent.cs",
                    "{docs}/guide.md:12: Nowhere/: no path of the repository ends with Nowhere/",
                    "{docs}/guide.md:12: Lib/AbsentType: no path of the repository ends with Lib/AbsentType.cs",
                ],
                Lines(checker.CheckBacktickedPaths()));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static DocumentationReferences Repository() => new(DocumentationReferences.FindRepositoryRoot());

    private static void Plant(string root, string relative, string text)
    {
        string path = Path.Combine(root, relative.Replace("{docs}", "docs", StringComparison.Ordinal));
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text.Replace("{docs}", "docs", StringComparison.Ordinal) + "\n");
    }

    // Reported lines as this file writes them: {docs} for the folder.
    private static string[] Lines((int Checked, List<BrokenReference> Broken) result) =>
        [.. result.Broken.Select(static b => b.ToString().Replace("docs/", "{docs}/", StringComparison.Ordinal))];

    private static void AssertResolved((int Checked, List<BrokenReference> Broken) result, string what)
    {
        Assert.True(result.Checked > 0, $"No {what} were found: is the repository root right?");
        Assert.True(
            result.Broken.Count == 0,
            $"{result.Broken.Count} of {result.Checked} {what} do not resolve:\n" + string.Join("\n", result.Broken));
    }
}
