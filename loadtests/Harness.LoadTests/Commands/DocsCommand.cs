using System.CommandLine;
using Harness.LoadTests.Common;
using Harness.LoadTests.Reference;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness docs cli --output FILE</c>, hidden: writes the command-line reference (docs/cli.md) from the command
/// tree itself. Hidden because it is the repository's tool (scripts/gen-cli-docs.sh), not a user's; hidden commands
/// are also left out of the reference.
/// </summary>
internal static class DocsCommand
{
    public static Command Create(IAnsiConsole console)
    {
        var output = new Option<string>("--output") { Description = "The file to write the reference to.", Required = true };
        var cli = new Command("cli", "Write the command-line reference (Markdown), generated from the command itself.") { output };
        cli.SetAction(parse => HarnessCli.Guarded(console, () =>
        {
            var path = parse.GetValue(output)!;
            File.WriteAllText(path, Generate());
            console.MarkupLineInterpolated($"[green]Command-line reference:[/] {Path.GetFullPath(path)}");
            return ExitCodes.Ok;
        }));
        return new Command("docs", "The repository's generated documentation.") { Hidden = true, Subcommands = { cli } };
    }

    /// <summary>The reference of <c>harness</c> as it ships: the tree <see cref="HarnessCli.Create"/> builds with no scenarios of a user's.</summary>
    public static string Generate() =>
        CliReference.Write(HarnessCli.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(TextWriter.Null) })), "harness");
}
