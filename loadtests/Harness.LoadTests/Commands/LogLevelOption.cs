using System.CommandLine;
using Harness.LoadTests.Common;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Commands;

/// <summary><c>--log-level</c>: how much of the runner's own clients' events goes to standard error (<see cref="Running.ClientLog"/>).</summary>
internal static class LogLevelOption
{
    /// <summary>The values it takes, least to most verbose.</summary>
    public static IReadOnlyList<(string Name, LogLevel Level)> Levels { get; } =
        [("none", LogLevel.None), ("error", LogLevel.Error), ("warning", LogLevel.Warning), ("information", LogLevel.Information), ("debug", LogLevel.Debug)];

    public static Option<string> Create() => new("--log-level")
    {
        Description = $"How much of the runner's own clients' events (GOAWAY, RST_STREAM, protocol errors, replies past a bound, connections) to write to standard error: {Names}.",
        DefaultValueFactory = _ => "warning",
    };

    /// <exception cref="UsageException">Not one of the levels, naming them.</exception>
    public static LogLevel Bind(ParseResult parse, Option<string> option)
    {
        var text = parse.GetValue(option)!;
        foreach (var (name, level) in Levels)
        {
            if (string.Equals(text, name, StringComparison.OrdinalIgnoreCase))
            {
                return level;
            }
        }

        throw new UsageException($"--log-level '{text}': valid values are {Names}.");
    }

    private static string Names => string.Join(", ", Levels.Select(l => l.Name));
}
