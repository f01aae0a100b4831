using System.Collections;
using System.CommandLine;
using System.CommandLine.Completions;
using System.CommandLine.Help;
using System.Globalization;
using System.Text;

namespace Harness.LoadTests.Reference;

/// <summary>
/// Writes the Markdown reference of a command tree (docs/cli.md): one section per visible command, depth first in
/// the order <c>--help</c> lists them, each with its arguments and a table of its options (aliases, value, default,
/// description). It reads only the System.CommandLine tree, so the page cannot describe an option the command lacks;
/// nothing in it varies between runs (no time, no machine), so a test can compare it with the committed page.
/// </summary>
internal static class CliReference
{
    /// <summary>The script that rewrites the page; the comparison's failure names it.</summary>
    public const string Script = "scripts/gen-cli-docs.sh";

    /// <param name="name">The root's name as a user types it: <see cref="RootCommand"/> takes the process's, which is a test host's under test.</param>
    public static string Write(Command root, string name)
    {
        var text = new StringBuilder();
        text.Append("# Command-line reference\n\n")
            .Append("Generated from the command itself (`HarnessCli.Create`, what `--help` shows) by `").Append(Script)
            .Append("`; do not edit it by hand: `CliReferenceTests` fails when this page and the command differ.\n");
        foreach (var (path, command) in Commands(root, name))
        {
            WriteCommand(text, path, command);
        }

        return text.ToString();
    }

    /// <summary>The visible commands, depth first, each with its full name (<c>harness run</c>).</summary>
    public static IEnumerable<(string Path, Command Command)> Commands(Command command, string path)
    {
        yield return (path, command);
        foreach (var sub in command.Subcommands.Where(c => !c.Hidden))
        {
            foreach (var inner in Commands(sub, path + " " + sub.Name))
            {
                yield return inner;
            }
        }
    }

    /// <summary>
    /// The options <c>--help</c> lists for <paramref name="command"/>, in its order: its own, then the built-in ones
    /// (help, version) and its ancestors' recursive ones (-h on a subcommand).
    /// </summary>
    public static IEnumerable<Option> VisibleOptions(Command command)
    {
        var inherited = Ancestors(command).SelectMany(a => a.Options.Where(o => o.Recursive));
        var (builtIn, own) = (command.Options.Where(IsBuiltIn), command.Options.Where(o => !IsBuiltIn(o)));
        return own.Concat(builtIn).Concat(inherited).Where(o => !o.Hidden).Distinct();
    }

    /// <summary>
    /// The option's names, shortest first, as <c>--help</c> writes them: <c>-?, -h, --help</c> (help leaves out the
    /// Windows spellings <c>/?</c> and <c>/h</c>, which it also takes).
    /// </summary>
    public static IReadOnlyList<string> Names(Option option) =>
        [.. option.Aliases.Prepend(option.Name).Where(n => !n.StartsWith('/')).Distinct().OrderBy(n => n.Length).ThenBy(n => n, StringComparer.Ordinal)];

    private static void WriteCommand(StringBuilder text, string path, Command command)
    {
        text.Append("\n## ").Append(path).Append("\n\n");
        if (command.Aliases.Count > 0)
        {
            text.Append("Also: ").AppendJoin(", ", command.Aliases.Order(StringComparer.Ordinal).Select(a => $"`{a}`")).Append(".\n\n");
        }

        if (!string.IsNullOrWhiteSpace(command.Description))
        {
            text.Append(Cell(command.Description)).Append("\n\n");
        }

        var subcommands = command.Subcommands.Where(c => !c.Hidden).ToList();
        text.Append("Usage: `").Append(path)
            .Append(string.Concat(command.Arguments.Where(a => !a.Hidden).Select(a => " " + ArgumentUsage(a))))
            .Append(subcommands.Count > 0 ? " [command]" : "").Append(" [options]`\n");

        var arguments = command.Arguments.Where(a => !a.Hidden).ToList();
        if (arguments.Count > 0)
        {
            text.Append("\n| Argument | Value | Default | Description |\n|---|---|---|---|\n");
            foreach (var argument in arguments)
            {
                text.Append("| `").Append(argument.Name).Append("` | ").Append(Value(argument, argument.HelpName ?? argument.Name))
                    .Append(" | ").Append(Default(argument)).Append(" | ").Append(Cell(argument.Description)).Append(" |\n");
            }
        }

        if (subcommands.Count > 0)
        {
            text.Append("\nCommands: ").AppendJoin(", ", subcommands.Select(c => $"[{c.Name}](#{Anchor(path + " " + c.Name)})")).Append(".\n");
        }

        text.Append("\n| Option | Value | Default | Description |\n|---|---|---|---|\n");
        foreach (var option in VisibleOptions(command))
        {
            text.Append("| ").AppendJoin(", ", Names(option).Select(n => $"`{n}`")).Append(" | ")
                .Append(IsFlag(option) ? "" : Value(option, option.HelpName ?? option.Name.TrimStart('-', '/')))
                .Append(" | ").Append(IsFlag(option) ? "" : Default(option))
                .Append(" | ").Append(Cell(option.Description)).Append(option.Required ? " Required." : "").Append(" |\n");
        }
    }

    private static IEnumerable<Command> Ancestors(Command command)
    {
        for (var parent = command.Parents.OfType<Command>().FirstOrDefault(); parent is not null; parent = parent.Parents.OfType<Command>().FirstOrDefault())
        {
            yield return parent;
        }
    }

    private static bool IsBuiltIn(Option option) => option is HelpOption or VersionOption;

    // A switch takes no value: --help shows none, and its default (false) says nothing.
    private static bool IsFlag(Option option) => option.Arity.MaximumNumberOfValues == 0 || option.ValueType == typeof(bool);

    // The allowed values when the symbol has a fixed set (AcceptOnlyFromAmong, an enum), else its value name.
    private static string Value(Symbol symbol, string name)
    {
        var allowed = symbol.GetCompletions(CompletionContext.Empty).Select(c => c.Label).ToList();
        return allowed.Count > 0 ? string.Join(" \\| ", allowed.Select(a => $"`{a}`")) : $"`<{name}>`";
    }

    private static string ArgumentUsage(Argument argument)
    {
        var usage = $"<{argument.Name}>" + (argument.Arity.MaximumNumberOfValues > 1 ? "..." : "");
        return argument.Arity.MinimumNumberOfValues == 0 ? $"[{usage}]" : usage;
    }

    private static string Default(Option option) => option.HasDefaultValue ? Format(option.GetDefaultValue()) : "";

    private static string Default(Argument argument) => argument.HasDefaultValue ? Format(argument.GetDefaultValue()) : "";

    private static string Format(object? value) => value switch
    {
        null => "",
        string s => s.Length == 0 ? "" : $"`{s}`",
        bool b => b ? "`true`" : "`false`",
        IFormattable f => $"`{f.ToString(null, CultureInfo.InvariantCulture)}`",
        IEnumerable items => string.Join(", ", items.Cast<object?>().Select(Format).Where(s => s.Length > 0)),
        _ => $"`{value}`",
    };

    // One table cell: no line breaks, no column bar, and no '<' or '*' that Markdown would read as a tag or emphasis.
    private static string Cell(string? text) =>
        (text ?? "").ReplaceLineEndings(" ").Replace("|", "\\|", StringComparison.Ordinal)
            .Replace("<", "\\<", StringComparison.Ordinal).Replace("*", "\\*", StringComparison.Ordinal).Trim();

    // GitHub's heading anchors: lower case, spaces to hyphens, other punctuation dropped.
    private static string Anchor(string heading) =>
        new(heading.ToLowerInvariant().Replace(' ', '-').Where(c => char.IsLetterOrDigit(c) || c is '-' or '_').ToArray());
}
