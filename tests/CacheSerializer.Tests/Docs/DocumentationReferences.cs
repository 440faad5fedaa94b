using System.Text.RegularExpressions;

namespace CacheSerializer.Tests.Docs;

/// <summary>
/// Finds the references of a repository's documentation and code that name nothing: links and anchors of the Markdown
/// files, the docs (and their quoted sections) named in C# comments and strings, and the repository paths the docs write
/// in backticks. Each check returns how many references it checked and the broken ones, with file and line.
/// </summary>
internal sealed partial class DocumentationReferences
{
    /// <summary>The file that marks the repository root.</summary>
    public const string RootMarker = "CacheSerializer.sln";

    // Records of past runs (BenchmarkDotNet reports, a kept section) name the code as it was then: their links are
    // checked, their paths are not.
    private const string Records = "docs/benchmarks/";

    private static readonly string[] CodeFolders = ["src", "tests", "benchmarks"];
    private static readonly string[] AlwaysSkipped = ["bin", "obj"];

    private readonly string _root;
    private readonly Dictionary<string, MarkdownDocument?> _documents = new(StringComparer.Ordinal);
    private readonly HashSet<string> _ignored;
    private readonly HashSet<string> _files = new(StringComparer.Ordinal);
    private readonly HashSet<string> _directories = new(StringComparer.Ordinal);

    public DocumentationReferences(string root)
    {
        _root = Path.GetFullPath(root);
        _ignored = [.. AlwaysSkipped, .. IgnoredFolders(_root)];
        Collect(_root);
    }

    /// <summary>Returns the repository root: the first folder above <see cref="AppContext.BaseDirectory"/> that holds <see cref="RootMarker"/>.</summary>
    /// <remarks>Not <c>[CallerFilePath]</c>: a CI build maps source paths to <c>/_/</c> (docs/contributing.md, "Repeated runs").</remarks>
    public static string FindRepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, RootMarker)))
            {
                return directory.FullName;
            }
        }

        throw new DirectoryNotFoundException($"No {RootMarker} above {AppContext.BaseDirectory}.");
    }

    /// <summary>Gets the Markdown files checked: README.md, benchmarks/README.md and every .md under docs/.</summary>
    public IEnumerable<string> MarkdownFiles =>
        _files.Where(static f => f is "README.md" or "benchmarks/README.md" || (f.StartsWith("docs/", StringComparison.Ordinal) && f.EndsWith(".md", StringComparison.Ordinal)))
            .Order(StringComparer.Ordinal);

    /// <summary>Gets the C# files checked: every .cs under src/, tests/ and benchmarks/.</summary>
    public IEnumerable<string> CodeFiles =>
        _files.Where(static f => CodeFolders.Any(folder => f.StartsWith(folder + "/", StringComparison.Ordinal)) && f.EndsWith(".cs", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);

    /// <summary>
    /// (a) Every relative link and link definition of the Markdown files names a file or folder that exists, and its
    /// <c>#anchor</c>, if any, a heading of the Markdown file it names (GitHub's anchors).
    /// </summary>
    public (int Checked, List<BrokenReference> Broken) CheckLinks()
    {
        int count = 0;
        var broken = new List<BrokenReference>();
        foreach (string file in MarkdownFiles)
        {
            MarkdownDocument document = Document(file)!;
            IEnumerable<Match> links = InlineLinkTarget().Matches(document.Prose).Concat(LinkDefinition().Matches(document.Prose));
            foreach (Match link in links.OrderBy(static m => m.Index))
            {
                string target = link.Groups["target"].Value;
                if (target.Length == 0 || ExternalLink().IsMatch(target))
                {
                    continue;
                }

                count++;
                if (ResolveLink(file, target) is { } problem)
                {
                    broken.Add(new BrokenReference(file, document.LineAt(link.Groups["target"].Index), target, problem));
                }
            }
        }

        return (count, broken);
    }

    /// <summary>
    /// (b) Every <c>docs/&lt;name&gt;.md</c> named in a C# file exists, and every section quoted right after it
    /// (<c>docs/&lt;name&gt;.md, "A"</c>, <c>(docs/&lt;name&gt;.md, "A" and "B")</c>, <c>docs/&lt;name&gt;.md ("A")</c>, also
    /// inside a string as <c>\"A\"</c> and across comment
    /// lines) is a heading of it: the whole heading, or its part before a colon, or either without a closing parenthesis
    /// (so "Rolling deploy" names "Rolling deploy: builds with another contract (issue 24)"), ignoring case.
    /// </summary>
    public (int Checked, List<BrokenReference> Broken) CheckCodeReferences()
    {
        int count = 0;
        var broken = new List<BrokenReference>();
        foreach (string file in CodeFiles)
        {
            string text = File.ReadAllText(Path.Combine(_root, file)).ReplaceLineEndings("\n");
            int[] lineStarts = MarkdownDocument.LineStarts(text);
            foreach (Match reference in DocPath().Matches(text))
            {
                int line = MarkdownDocument.LineOf(lineStarts, reference.Index);
                count++;
                MarkdownDocument? document = Document(reference.Value);
                if (document is null)
                {
                    broken.Add(new BrokenReference(file, line, reference.Value, "no such file"));
                    continue;
                }

                int end = reference.Index + reference.Length;
                string after = CommentBreak().Replace(text.Substring(end, Math.Min(400, text.Length - end)), " ");
                foreach (Capture section in QuotedSections().Match(after).Groups["section"].Captures)
                {
                    count++;
                    if (!NamesHeading(document, section.Value))
                    {
                        broken.Add(new BrokenReference(file, line, $"{reference.Value}, \"{section.Value}\"", $"no such heading in {reference.Value}"));
                    }
                }
            }
        }

        return (count, broken);
    }

    /// <summary>
    /// (c) Every path the Markdown files write in backticks exists (docs/benchmarks/ excepted: records name the code of
    /// their day). A path whose first folder is a folder of the repository root (<c>src/...</c>, <c>tests/...</c>,
    /// <c>scripts/...</c>, <c>benchmarks/...</c>, <c>docs/...</c>) is taken from the root; any other path with a slash that
    /// ends in <c>/</c>, in a source file's extension, or is <c>Folder/Type</c> (the type's .cs file) must end some path of
    /// the repository (<c>Internal/Failures.cs</c>, <c>Transcoding/ProtobufNet/</c>, <c>Fixtures/FakeMemcachedServer</c>).
    /// Absolute paths, URLs, placeholders (<c>&lt;...&gt;</c>, <c>{...}</c>), command lines and folders the .gitignore names
    /// (build output) are not repository paths; a trailing <c>:line</c> is ignored.
    /// </summary>
    public (int Checked, List<BrokenReference> Broken) CheckBacktickedPaths()
    {
        int count = 0;
        var broken = new List<BrokenReference>();
        HashSet<string> rootFolders = [.. _directories.Where(static d => d.IndexOf('/') == d.Length - 1).Select(static d => d.TrimEnd('/'))];
        foreach (string file in MarkdownFiles.Where(static f => !f.StartsWith(Records, StringComparison.Ordinal)))
        {
            foreach ((string text, int line) in Document(file)!.CodeSpans)
            {
                if (!text.Contains('/', StringComparison.Ordinal) || NotAPath().IsMatch(text))
                {
                    continue;
                }

                string path = LineSuffix().Replace(text, "");
                string first = path[..path.IndexOf('/', StringComparison.Ordinal)];
                if (_ignored.Contains(first))
                {
                    continue;
                }

                if (rootFolders.Contains(first))
                {
                    count++;
                    if (!_files.Contains(path) && !_directories.Contains(path.TrimEnd('/') + "/"))
                    {
                        broken.Add(new BrokenReference(file, line, text, "no such file or folder from the repository root"));
                    }
                }
                else if (path.EndsWith('/') || SourceExtension().IsMatch(path) || FolderAndType().IsMatch(path))
                {
                    count++;
                    (IEnumerable<string> candidates, string suffix) = path.EndsWith('/') ? (_directories, path)
                        : FolderAndType().IsMatch(path) ? (_files, path + ".cs")
                        : (_files, path);
                    if (!candidates.Any(p => p == suffix || p.EndsWith("/" + suffix, StringComparison.Ordinal)))
                    {
                        broken.Add(new BrokenReference(file, line, text, $"no path of the repository ends with {suffix}"));
                    }
                }
            }
        }

        return (count, broken);
    }

    /// <summary>Returns why a link of <paramref name="file"/> does not resolve, or null when it does.</summary>
    private string? ResolveLink(string file, string target)
    {
        int hash = target.IndexOf('#', StringComparison.Ordinal);
        string path = Uri.UnescapeDataString(hash < 0 ? target : target[..hash]);
        string? anchor = hash < 0 ? null : target[(hash + 1)..];
        string resolved = file;
        if (path.Length > 0)
        {
            string full = Path.GetFullPath(path.StartsWith('/') ? Path.Combine(_root, path.TrimStart('/')) : Path.Combine(_root, Path.GetDirectoryName(file)!, path));
            resolved = Path.GetRelativePath(_root, full).Replace('\\', '/');
            if (resolved.StartsWith("..", StringComparison.Ordinal))
            {
                return "outside the repository";
            }

            if (!File.Exists(full) && !Directory.Exists(full))
            {
                return $"no such file or folder ({resolved})";
            }
        }

        if (anchor is null || !resolved.EndsWith(".md", StringComparison.Ordinal))
        {
            return null;
        }

        return Document(resolved)!.Anchors.Contains(anchor) ? null : $"no heading with anchor #{anchor} in {resolved}";
    }

    private static bool NamesHeading(MarkdownDocument document, string section)
    {
        string wanted = Whitespace().Replace(section.Replace("`", "", StringComparison.Ordinal), " ").Trim();
        foreach (string heading in document.Headings)
        {
            int colon = heading.IndexOf(": ", StringComparison.Ordinal);
            string[] forms = colon < 0 ? [heading] : [heading, heading[..colon]];
            foreach (string form in forms)
            {
                if (string.Equals(form, wanted, StringComparison.OrdinalIgnoreCase)
                    || string.Equals(ClosingParenthesis().Replace(form, ""), wanted, StringComparison.OrdinalIgnoreCase))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>Returns a Markdown file of the repository, parsed once, or null when it does not exist.</summary>
    private MarkdownDocument? Document(string relative)
    {
        if (!_documents.TryGetValue(relative, out MarkdownDocument? document))
        {
            string full = Path.Combine(_root, relative);
            document = File.Exists(full) ? MarkdownDocument.Parse(File.ReadAllText(full)) : null;
            _documents[relative] = document;
        }

        return document;
    }

    /// <summary>Records every file and folder under <paramref name="directory"/>, except hidden, build and ignored folders.</summary>
    private void Collect(string directory)
    {
        foreach (string entry in Directory.EnumerateFileSystemEntries(directory))
        {
            string name = Path.GetFileName(entry);
            string relative = Path.GetRelativePath(_root, entry).Replace('\\', '/');
            if (name.StartsWith('.'))
            {
                continue;
            }

            if (File.Exists(entry))
            {
                _files.Add(relative);
            }
            else if (!_ignored.Contains(name))
            {
                _directories.Add(relative + "/");
                Collect(entry);
            }
        }
    }

    /// <summary>The plain folder names of the root .gitignore (<c>bin/</c>, <c>/loadtest-results/</c>): output, not sources.</summary>
    private static IEnumerable<string> IgnoredFolders(string root)
    {
        string gitignore = Path.Combine(root, ".gitignore");
        return File.Exists(gitignore)
            ? File.ReadLines(gitignore).Select(static l => l.Trim().Trim('/')).Where(static l => l.Length > 0 && !l.StartsWith('#') && !l.Contains('/') && !l.Contains('*'))
            : [];
    }

    // An inline link or image: ](target) or ](target "title").
    [GeneratedRegex(@"\]\((?<target>[^()\s]*)(?:\s+""[^""]*"")?\)")]
    private static partial Regex InlineLinkTarget();

    // A link reference definition: [label]: target.
    [GeneratedRegex(@"^ {0,3}\[[^\]\n]+\]:[ \t]*(?<target>\S+)", RegexOptions.Multiline)]
    private static partial Regex LinkDefinition();

    [GeneratedRegex(@"^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)")]
    private static partial Regex ExternalLink();

    [GeneratedRegex(@"(?<![\w./-])docs/(?:[\w.-]+/)*[\w.-]+?\.md\b")]
    private static partial Regex DocPath();

    // A line break inside a comment (/// or //, or a block comment's *), read as the space it stands for.
    [GeneratedRegex(@"[ \t]*\n[ \t]*(?:///?|\*(?!/))?[ \t]*")]
    private static partial Regex CommentBreak();

    // The sections quoted right after a doc's path: , "A"  or  ("A"  then more joined by , / and / or; \"A\" in strings.
    [GeneratedRegex(@"\A(?:'s)?[ \t]*[,(][ \t]*\\?""(?<section>[^""\\]+)\\?""(?:[ \t]*(?:,|and|or)[ \t]*\\?""(?<section>[^""\\]+)\\?"")*")]
    private static partial Regex QuotedSections();

    [GeneratedRegex(@"[ \t]*\([^()]*\)$")]
    private static partial Regex ClosingParenthesis();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();

    // Not a repository path: absolute, relative to the working directory or home, a URL, a placeholder, a command line.
    [GeneratedRegex(@"^[/.~-]|://|[\s<>{}*?$|""'=,;()\[\]\\]")]
    private static partial Regex NotAPath();

    [GeneratedRegex(@":\d+(?:-\d+)?$")]
    private static partial Regex LineSuffix();

    [GeneratedRegex(@"\.(?:cs|csproj|proto|sh|md|json|svg|props|sln)$")]
    private static partial Regex SourceExtension();

    // Folder/Type, as the docs name a class by its folder: each segment an identifier, the type capitalized.
    [GeneratedRegex(@"^(?:[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*/)+[A-Z][A-Za-z0-9]*$")]
    private static partial Regex FolderAndType();
}
