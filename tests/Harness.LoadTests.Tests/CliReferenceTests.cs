using System.CommandLine;
using System.Text.RegularExpressions;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Reference;

namespace Harness.LoadTests.Tests;

/// <summary>
/// docs/cli.md is the command's own reference: it is regenerated here and compared with the committed page, and the
/// generator is held to what <c>--help</c> lists, command by command.
/// </summary>
public sealed partial class CliReferenceTests
{
    [Fact]
    public void TheCommittedPage_IsWhatTheCommandGenerates()
    {
        var generated = DocsCommand.Generate();

        var committed = File.ReadAllText(Path.Combine(RepositoryRoot(), "docs", "cli.md"));

        if (committed.ReplaceLineEndings("\n") != generated)
        {
            Assert.Fail(
                $"docs/cli.md differs from the harness command; run {CliReference.Script} and commit docs/cli.md.\n"
                + string.Join('\n', CliPageDifferences.Between(committed.ReplaceLineEndings("\n"), generated)));
        }
    }

    [Fact]
    public void EveryCommand_ListsTheOptionsItsHelpLists()
    {
        var root = HarnessCli.Create(Spectre.Console.AnsiConsole.Console);
        var page = CliPageDifferences.Sections(CliReference.Write(root, "harness"));

        foreach (var (path, _) in CliReference.Commands(root, "harness"))
        {
            var help = HelpOptionNames(path.Split(' ').Skip(1).Append("--help").ToArray());

            var documented = page[path].Keys.Where(k => k.StartsWith("`-", StringComparison.Ordinal)).Select(k => k.Replace("`", "", StringComparison.Ordinal)).ToList();

            Assert.Equal(help, documented);
        }
    }

    [Fact]
    public void ARow_NamesAliasesValueDefaultAllowedValuesAndRequired_AndLeavesOutHiddenOptions()
    {
        var level = new Option<string>("--level", "-l") { Description = "How loud | how much.", DefaultValueFactory = _ => "low" };
        level.AcceptOnlyFromAmong("low", "high");
        var root = new RootCommand("Test.")
        {
            level,
            new Option<int>("--count") { Description = "How many.", HelpName = "N", Required = true },
            new Option<bool>("--quiet") { Description = "No output." },
            new Option<string>("--secret") { Hidden = true },
            new Command("sub", "A subcommand.") { new Argument<string[]>("FILES") { Description = "Files.", Arity = ArgumentArity.OneOrMore } },
            new Command("internal") { Hidden = true },
        };

        var page = CliReference.Write(root, "tool");

        Assert.Contains("| `-l`, `--level` | `high` \\| `low` | `low` | How loud \\| how much. |\n", page, StringComparison.Ordinal);
        Assert.Contains("| `--count` | `<N>` |  | How many. Required. |\n", page, StringComparison.Ordinal);
        Assert.Contains("| `--quiet` |  |  | No output. |\n", page, StringComparison.Ordinal);
        Assert.Contains("Usage: `tool sub <FILES>... [options]`", page, StringComparison.Ordinal);
        Assert.Contains("| `FILES` | `<FILES>` |  | Files. |\n", page, StringComparison.Ordinal);
        Assert.DoesNotContain("--secret", page, StringComparison.Ordinal);
        Assert.DoesNotContain("internal", page, StringComparison.Ordinal);
    }

    [Fact]
    public void TheDifferences_NameTheCommandAndTheOption()
    {
        const string Committed = "# R\n\n## harness run\n\n| Option | Value | Default | Description |\n|---|---|---|---|\n| `--a` | `<a>` |  | A. |\n| `--gone` |  |  | Gone. |\n";
        const string Generated = "# R\n\n## harness run\n\n| Option | Value | Default | Description |\n|---|---|---|---|\n| `--a` | `<a>` | `1` | A. |\n| `--new` |  |  | New. |\n\n## harness merge\n";

        var differences = CliPageDifferences.Between(Committed, Generated);

        Assert.Equal(
            [
                "harness run: `--a` differs: page '| `--a` | `<a>` |  | A. |', command '| `--a` | `<a>` | `1` | A. |'",
                "harness run: `--new` is an option of the command but not on the page",
                "harness run: `--gone` is on the page but not an option of the command",
                "harness merge: a command not on the page",
            ],
            differences);
    }

    /// <summary>The names in the Options section of <c>harness ARGS --help</c>, in its order.</summary>
    private static List<string> HelpOptionNames(string[] args)
    {
        var output = new StringWriter();
        var exit = HarnessCli.Create(Spectre.Console.AnsiConsole.Console).Parse(args).Invoke(new InvocationConfiguration { Output = output });
        Assert.Equal(0, exit);
        var options = output.ToString().ReplaceLineEndings("\n").Split("Options:\n")[1].Split("\n\n")[0];
        return [.. options.Split('\n').Select(line => HelpNames().Match(line)).Where(m => m.Success).Select(m => m.Groups[1].Value)];
    }

    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Harness.sln")))
            {
                return folder.FullName;
            }
        }

        throw new DirectoryNotFoundException($"no Harness.sln above {AppContext.BaseDirectory}");
    }

    // An option's line: two spaces, its names (-?, -h, --help), then its value or description.
    [GeneratedRegex(@"^  (-[^\s,]+(?:, -[^\s,]+)*)")]
    private static partial Regex HelpNames();
}
