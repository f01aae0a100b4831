namespace Harness.LoadTests.Tests;

/// <summary>
/// What differs between two versions of docs/cli.md, said as a reader would fix it: per command (a <c>## </c>
/// heading), the table rows (keyed by their first cell: the option's or argument's names) added, removed or changed.
/// </summary>
internal static class CliPageDifferences
{
    /// <summary>The key of a command's text outside its tables: description, usage, its subcommands.</summary>
    private const string Text = "its description or usage";

    public static List<string> Between(string committed, string generated)
    {
        var page = Sections(committed);
        var command = Sections(generated);
        var differences = new List<string>();
        foreach (var (path, rows) in command)
        {
            if (!page.TryGetValue(path, out var pageRows))
            {
                differences.Add($"{path}: a command not on the page");
                continue;
            }

            foreach (var (key, row) in rows)
            {
                if (!pageRows.TryGetValue(key, out var pageRow))
                {
                    differences.Add($"{path}: {key} is an option of the command but not on the page");
                }
                else if (pageRow != row)
                {
                    differences.Add($"{path}: {key} differs: page '{pageRow}', command '{row}'");
                }
            }

            differences.AddRange(pageRows.Keys.Where(k => !rows.ContainsKey(k)).Select(k => $"{path}: {k} is on the page but not an option of the command"));
        }

        differences.AddRange(page.Keys.Where(p => !command.ContainsKey(p)).Select(p => $"{p}: on the page but not a command"));
        if (differences.Count == 0)
        {
            // Same commands and rows: the text between them differs (a description, a usage line, the order).
            var line = committed.Split('\n').Zip(generated.Split('\n')).Select((pair, i) => (pair, i)).FirstOrDefault(x => x.pair.First != x.pair.Second);
            differences.Add($"line {line.i + 1}: page '{line.pair.First}', command '{line.pair.Second}'");
        }

        return differences;
    }

    /// <summary>Each command's heading, with its table rows by first cell, in the page's order (the text outside them under one key of its own).</summary>
    public static Dictionary<string, Dictionary<string, string>> Sections(string page)
    {
        var sections = new Dictionary<string, Dictionary<string, string>>();
        Dictionary<string, string>? rows = null;
        foreach (var line in page.Split('\n'))
        {
            if (line.StartsWith("## ", StringComparison.Ordinal))
            {
                rows = sections[line[3..]] = [];
            }
            else if (rows is not null && line.StartsWith("| ", StringComparison.Ordinal) && !line.StartsWith("| Option |", StringComparison.Ordinal)
                && !line.StartsWith("| Argument |", StringComparison.Ordinal))
            {
                rows[line.Split(" | ")[0][2..]] = line;
            }
            else if (rows is not null && line.Length > 0 && !line.StartsWith('|'))
            {
                rows[Text] = rows.TryGetValue(Text, out var text) ? text + "\n" + line : line;
            }
        }

        return sections;
    }
}
