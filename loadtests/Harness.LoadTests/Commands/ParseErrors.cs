using System.CommandLine.Parsing;
using System.CommandLine;

namespace Harness.LoadTests.Commands;

/// <summary>
/// A command line that does not parse, said in one line: the option (or command) and what it takes, rather than
/// the parser's message followed by the whole help.
/// </summary>
internal static class ParseErrors
{
    /// <summary>The line for the first error of <paramref name="parse"/>, or null when it parsed.</summary>
    public static string? Describe(ParseResult parse)
    {
        if (parse.Errors.Count == 0)
        {
            return null;
        }

        var command = "harness" + (parse.CommandResult.Command is RootCommand ? "" : " " + parse.CommandResult.Command.Name);
        var error = parse.Errors[0];
        switch (error.SymbolResult)
        {
            case OptionResult { Option: var option } result when result.Tokens.Count == 0:
                return $"{option.Name} needs {Takes(option.ValueType)}: {option.Description}";
            case OptionResult { Option: var option } result when option.Arity.MaximumNumberOfValues == 1 && result.Tokens.Count > 1:
                return $"{option.Name} is given {result.Tokens.Count} values ({string.Join(", ", result.Tokens.Select(t => $"'{t.Value}'"))}); it takes one: {option.Description}";
            case OptionResult { Option: var option } result:
                return $"{option.Name} '{result.Tokens[0].Value}': takes {Takes(option.ValueType)}; {option.Description}";
            case ArgumentResult { Argument: var argument }:
                return $"{command} needs {argument.Name}: {argument.Description}";
        }

        if (parse.UnmatchedTokens.Count > 0)
        {
            var token = parse.UnmatchedTokens[0];
            var what = token.StartsWith('-') ? "option" : "command or argument";
            return $"unknown {what} '{token}' for {command}; `{command} --help` lists what it takes.";
        }

        // A rule of the parser's own: its message, still on one line.
        return $"{error.Message.ReplaceLineEndings(" ")} (`{command} --help` lists what it takes.)";
    }

    private static string Takes(Type type) => (Nullable.GetUnderlyingType(type) ?? type) switch
    {
        var t when t == typeof(double) => "a number",
        var t when t == typeof(int) || t == typeof(long) => "a whole number",
        _ => "a value",
    };
}
