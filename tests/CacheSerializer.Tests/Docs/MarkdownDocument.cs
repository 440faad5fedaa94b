using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace CacheSerializer.Tests.Docs;

/// <summary>
/// What the reference checks read from a Markdown file, as GitHub renders it: the prose (where links are), the inline
/// code spans (where paths are), and the headings with their anchors. Fenced code blocks are neither prose nor headings.
/// Indented code blocks are not told apart from indented list paragraphs (the docs write code in fences).
/// </summary>
internal sealed partial class MarkdownDocument
{
    private readonly int[] _lineStarts;

    private MarkdownDocument(string text)
    {
        text = text.ReplaceLineEndings("\n");
        _lineStarts = LineStarts(text);

        // Fenced blocks become blanks of the same shape, so every offset keeps its line.
        char[] unfenced = text.ToCharArray();
        string? fence = null;
        foreach ((int start, int end) in Lines(text))
        {
            Match marker = Fence().Match(text, start, end - start);
            if (fence is null && marker.Success)
            {
                fence = marker.Groups["fence"].Value;
            }
            else if (fence is null)
            {
                continue;
            }
            else if (marker.Success && marker.Groups["fence"].Value[0] == fence[0] && marker.Groups["fence"].Length >= fence.Length
                && marker.Groups["info"].Value.Trim().Length == 0)
            {
                fence = null;
            }

            Array.Fill(unfenced, ' ', start, end - start);
        }

        // Headings are read with their code spans; links are read where code spans are blanked too.
        string withoutFences = new(unfenced);
        char[] prose = unfenced;
        var spans = new List<(string Text, int Line)>();
        foreach (Match span in CodeSpan().Matches(withoutFences))
        {
            spans.Add((span.Groups["code"].Value.Trim(), LineAt(span.Index)));
            for (int i = span.Index; i < span.Index + span.Length; i++)
            {
                prose[i] = prose[i] == '\n' ? '\n' : ' ';
            }
        }

        var headings = new List<string>();
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var occurrences = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (Match heading in Heading().Matches(withoutFences))
        {
            string title = Title(heading.Groups["text"].Value);
            headings.Add(title);
            anchors.Add(UniqueSlug(Slug(title), occurrences));
        }

        Prose = new string(prose);
        CodeSpans = spans;
        Headings = headings;
        Anchors = anchors;
    }

    /// <summary>Gets the text with fenced code blocks and inline code spans blanked (line breaks kept): where links are read.</summary>
    public string Prose { get; }

    /// <summary>Gets the content of every inline code span outside fenced blocks, with the line it starts on.</summary>
    public IReadOnlyList<(string Text, int Line)> CodeSpans { get; }

    /// <summary>Gets every heading's text as rendered (code and link markup removed), in order.</summary>
    public IReadOnlyList<string> Headings { get; }

    /// <summary>Gets every heading's anchor, as GitHub makes it (duplicates suffixed -1, -2, ...).</summary>
    public IReadOnlySet<string> Anchors { get; }

    public static MarkdownDocument Parse(string text) => new(text);

    /// <summary>Returns the line (from 1) that <paramref name="index"/> of the text is on.</summary>
    public int LineAt(int index) => LineOf(_lineStarts, index);

    /// <summary>Returns the offset at which each line of <paramref name="text"/> starts (line breaks are <c>\n</c>).</summary>
    public static int[] LineStarts(string text) =>
        [0, .. text.Select(static (c, i) => (c, i)).Where(static p => p.c == '\n').Select(static p => p.i + 1)];

    /// <summary>Returns the line (from 1) that <paramref name="index"/> is on, given <see cref="LineStarts"/> of its text.</summary>
    public static int LineOf(int[] lineStarts, int index)
    {
        int found = Array.BinarySearch(lineStarts, index);
        return (found >= 0 ? found : ~found - 1) + 1;
    }

    /// <summary>Returns a heading's text as GitHub renders it: code spans without their backticks, links as their text.</summary>
    public static string Title(string heading) =>
        InlineLink().Replace(heading, "${text}").Replace("`", "", StringComparison.Ordinal).Trim();

    /// <summary>
    /// Returns GitHub's anchor for a heading (github-slugger): lowercase, every character but letters, digits, marks,
    /// <c>_</c>, <c>-</c> and spaces removed, each space a <c>-</c>.
    /// </summary>
    public static string Slug(string heading)
    {
        var slug = new StringBuilder();
        foreach (char c in Title(heading).ToLowerInvariant())
        {
            UnicodeCategory category = char.GetUnicodeCategory(c);
            if (c == ' ')
            {
                slug.Append('-');
            }
            else if (c == '-' || char.IsLetterOrDigit(c) || category is UnicodeCategory.ConnectorPunctuation
                || category is UnicodeCategory.NonSpacingMark or UnicodeCategory.SpacingCombiningMark or UnicodeCategory.EnclosingMark)
            {
                slug.Append(c);
            }
        }

        return slug.ToString();
    }

    /// <summary>The second heading with a slug gets <c>-1</c>, the third <c>-2</c>, skipping any already taken.</summary>
    private static string UniqueSlug(string slug, Dictionary<string, int> occurrences)
    {
        string unique = slug;
        while (occurrences.ContainsKey(unique))
        {
            occurrences[slug]++;
            unique = $"{slug}-{occurrences[slug]}";
        }

        occurrences[unique] = 0;
        return unique;
    }

    private static IEnumerable<(int Start, int End)> Lines(string text)
    {
        for (int start = 0; start < text.Length;)
        {
            int end = text.IndexOf('\n', start);
            end = end < 0 ? text.Length : end;
            yield return (start, end);
            start = end + 1;
        }
    }

    [GeneratedRegex(@"\G {0,3}(?<fence>`{3,}|~{3,})(?<info>[^\n]*)")]
    private static partial Regex Fence();

    // A code span: a run of backticks, then anything up to a run of the same length, within one paragraph.
    [GeneratedRegex(@"(?<!`)(?<ticks>`+)(?!`)(?<code>(?:(?!\n[ \t]*\n).)+?)(?<!`)\k<ticks>(?!`)", RegexOptions.Singleline)]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"^ {0,3}#{1,6}[ \t]+(?<text>[^\n]+?)(?:[ \t]+#+)?[ \t]*$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"!?\[(?<text>[^\]]*)\]\([^)]*\)")]
    private static partial Regex InlineLink();
}
