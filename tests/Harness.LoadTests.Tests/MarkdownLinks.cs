using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace Harness.LoadTests.Tests;

/// <summary>
/// The relative links of Markdown pages and whether each reaches something: a file or folder that exists, and for an
/// <c>#anchor</c> into a Markdown page, one of its headings as GitHub names it. Code (fenced blocks, inline spans) is
/// text, not links, and is left out; links to the web are not followed.
/// </summary>
internal static partial class MarkdownLinks
{
    /// <summary>A link that reaches nothing: the page it is on, its line, its target and why.</summary>
    public sealed record Broken(string Page, int Line, string Target, string Reason)
    {
        public override string ToString() => $"{Page}:{Line}: ({Target}) {Reason}";
    }

    /// <summary>Every link of <paramref name="pages"/> (paths under <paramref name="root"/>) that reaches nothing.</summary>
    public static IReadOnlyList<Broken> BrokenLinks(string root, IEnumerable<string> pages)
    {
        var broken = new List<Broken>();
        foreach (var page in pages)
        {
            var path = Path.Combine(root, page);
            foreach (var (line, target) in Links(File.ReadAllText(path)))
            {
                var reason = Check(path, target);
                if (reason is not null)
                {
                    broken.Add(new Broken(page.Replace('\\', '/'), line, target, reason));
                }
            }
        }

        return broken;
    }

    /// <summary>The relative links of a page with their line numbers: inline links and images, outside code.</summary>
    public static IEnumerable<(int Line, string Target)> Links(string markdown)
    {
        foreach (var (number, text) in ProseLines(markdown))
        {
            foreach (Match link in LinkPattern().Matches(InlineCode().Replace(text, "")))
            {
                var target = link.Groups["target"].Value;
                if (!IsExternal(target))
                {
                    yield return (number, target);
                }
            }
        }
    }

    /// <summary>The anchors GitHub gives a page's headings, in order, a repeated one suffixed -1, -2….</summary>
    public static IReadOnlySet<string> Anchors(string markdown)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var (_, text) in ProseLines(markdown))
        {
            var heading = Heading().Match(text);
            if (!heading.Success)
            {
                continue;
            }

            var slug = Slug(heading.Groups["text"].Value);
            var count = seen.GetValueOrDefault(slug);
            seen[slug] = count + 1;
            anchors.Add(count == 0 ? slug : $"{slug}-{count.ToString(CultureInfo.InvariantCulture)}");
        }

        return anchors;
    }

    /// <summary>
    /// GitHub's anchor of a heading: its text as rendered (code spans' text, links' text, no emphasis marks), lower
    /// case, letters, digits, '-' and '_' kept, each space a '-', everything else (punctuation, symbols) dropped.
    /// </summary>
    public static string Slug(string heading)
    {
        // An entity is its character once rendered (&lt; is '<', then dropped), as GitHub reads it.
        var rendered = System.Net.WebUtility.HtmlDecode(LinkPattern().Replace(heading, m => m.Groups["text"].Value))
            .Replace("`", "", StringComparison.Ordinal)
            .Replace("*", "", StringComparison.Ordinal)
            .Trim();
        var slug = new StringBuilder(rendered.Length);
        foreach (var c in rendered.ToLowerInvariant())
        {
            if (char.IsLetterOrDigit(c) || c is '-' or '_' || char.GetUnicodeCategory(c) is UnicodeCategory.NonSpacingMark)
            {
                slug.Append(c);
            }
            else if (c == ' ')
            {
                slug.Append('-');
            }
        }

        return slug.ToString();
    }

    private static string? Check(string page, string target)
    {
        var hash = target.IndexOf('#', StringComparison.Ordinal);
        var file = hash < 0 ? target : target[..hash];
        var anchor = hash < 0 ? null : Uri.UnescapeDataString(target[(hash + 1)..]);
        var resolved = file.Length == 0
            ? page
            : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(page)!, Uri.UnescapeDataString(file)));

        if (!File.Exists(resolved) && !Directory.Exists(resolved))
        {
            return "no such file";
        }

        if (anchor is null || !resolved.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        return Anchors(File.ReadAllText(resolved)).Contains(anchor) ? null : $"no heading with the anchor #{anchor}";
    }

    private static bool IsExternal(string target) =>
        target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.OrdinalIgnoreCase);

    // The lines outside fenced code blocks (``` or ~~~), numbered from 1.
    private static IEnumerable<(int Number, string Text)> ProseLines(string markdown)
    {
        string? fence = null;
        var number = 0;
        foreach (var line in markdown.ReplaceLineEndings("\n").Split('\n'))
        {
            number++;
            var trimmed = line.TrimStart();
            if (fence is null && (trimmed.StartsWith("```", StringComparison.Ordinal) || trimmed.StartsWith("~~~", StringComparison.Ordinal)))
            {
                fence = trimmed[..3];
                continue;
            }

            if (fence is not null)
            {
                if (trimmed.StartsWith(fence, StringComparison.Ordinal))
                {
                    fence = null;
                }

                continue;
            }

            yield return (number, line);
        }
    }

    // [text](target) or ![alt](target), an optional "title" after the target; the text may hold one level of brackets.
    [GeneratedRegex("""!?\[(?<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?<target>[^)\s]+)(?:\s+"[^"]*")?\)""")]
    private static partial Regex LinkPattern();

    [GeneratedRegex("`+[^`]*`+")]
    private static partial Regex InlineCode();

    [GeneratedRegex(@"^ {0,3}#{1,6}\s+(?<text>.*?)(?:\s+#+)?\s*$")]
    private static partial Regex Heading();
}
