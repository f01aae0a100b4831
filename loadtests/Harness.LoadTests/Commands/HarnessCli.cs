using System.CommandLine;
using Harness.LoadTests.Common;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>The <c>harness</c> command tree: <c>run</c> (the default), <c>matrix</c>, <c>compare</c>, <c>report</c>, <c>calibrate</c>, <c>merge</c>, <c>coordinate</c> and the hidden <c>docs</c>, each a class of its own here.</summary>
internal static class HarnessCli
{
    /// <summary>Parses and runs <paramref name="args"/>; a command line that does not parse gets one line and exit code 2, not the help.</summary>
    /// <param name="scenarios">A user's own scenarios (<see cref="HarnessApp"/>), which replace the harness's operations; empty for <c>harness</c>.</param>
    /// <param name="log">Where <c>--log-level</c>'s lines go; standard error when null.</param>
    public static Task<int> InvokeAsync(
        IAnsiConsole console,
        string[] args,
        InvocationConfiguration? configuration = null,
        CancellationToken cancellationToken = default,
        IReadOnlyList<Engine.Scenario>? scenarios = null,
        TextWriter? log = null)
    {
        var parse = Create(console, scenarios ?? [], log).Parse(args);
        return ParseErrors.Describe(parse) is { } error
            ? Task.FromResult(Usage(console, error))
            : parse.InvokeAsync(configuration, cancellationToken);
    }

    public static RootCommand Create(IAnsiConsole console, IReadOnlyList<Engine.Scenario>? scenarios = null, TextWriter? log = null)
    {
        scenarios ??= [];
        var root = new RootCommand(
            "Load-tests the Harness sample services in each scheduling mode and writes a comparison report. " +
            "With no command, runs the embedded default: the stub and both services started locally, every mode in turn.");

        var rootOptions = new RunCommandOptions { UserScenarios = scenarios, LogWriter = log };
        rootOptions.AddTo(root);
        var rootAgent = new AgentCommandOptions();
        rootAgent.AddTo(root);
        root.SetAction((parse, ct) => RunCommand.RunAsync(console, rootOptions, rootAgent, parse, ct));

        var run = new Command("run", "Run the scenarios against local services (default) or --target services, then write the report.");
        var runOptions = new RunCommandOptions { UserScenarios = scenarios, LogWriter = log };
        runOptions.AddTo(run);
        var runAgent = new AgentCommandOptions();
        runAgent.AddTo(run);
        run.SetAction((parse, ct) => RunCommand.RunAsync(console, runOptions, runAgent, parse, ct));
        root.Subcommands.Add(run);

        var matrix = new Command(
            "matrix",
            "Run each scheduling mode in its own container (Docker), one mode after another under identical CPU and memory limits, and compare them in one report.");
        var matrixOptions = new MatrixCommandOptions();
        matrixOptions.AddTo(matrix);
        matrix.SetAction((parse, ct) => MatrixCommand.RunAsync(console, matrixOptions, parse, ct));
        root.Subcommands.Add(matrix);

        root.Subcommands.Add(CompareCommand.Create(console));
        root.Subcommands.Add(ReportCommand.Create(console));
        root.Subcommands.Add(CalibrateCommand.Create(console));
        root.Subcommands.Add(MergeCommand.Create(console));
        root.Subcommands.Add(CoordinateCommand.Create(console));
        root.Subcommands.Add(DocsCommand.Create(console));
        return root;
    }

    /// <summary>
    /// The effective command, as the report shows it: the default command is named (<c>harness run</c>, never a bare
    /// <c>harness</c>), after the variables passed to the local services (<see cref="ServiceEnvironment"/>), which
    /// change what is measured, and the runner's own settings where they differ from its defaults (<see cref="RunnerRuntime"/>).
    /// </summary>
    internal static string CommandLine(ParseResult parse) => CommandLine(parse, ServiceEnvironment.Current(), RunnerRuntime.Overrides());

    internal static string CommandLine(
        ParseResult parse, IEnumerable<KeyValuePair<string, string>> serviceEnvironment, IEnumerable<KeyValuePair<string, string>>? runnerEnvironment = null)
    {
        var tokens = parse.Tokens.Select(t => t.Value).ToList();
        if (parse.CommandResult.Command is RootCommand)
        {
            tokens.Insert(0, "run");
        }

        var variables = (runnerEnvironment ?? []).Select(v => $"{v.Key}={v.Value}")
            .Concat(serviceEnvironment.Select(v => $"{ServiceEnvironment.Prefix}{v.Key}={v.Value}"));
        return string.Join(' ', [.. variables, "harness", .. tokens]);
    }

    internal static int Usage(IAnsiConsole console, string message)
    {
        console.MarkupLineInterpolated($"[red]error:[/] {message}");
        return ExitCodes.Usage;
    }

    internal static int Guarded(IAnsiConsole console, Func<int> action)
    {
        try
        {
            return action();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
        {
            return Usage(console, ex.Message);
        }
    }

    // Absolute, as `run` prints its report's path: a path printed relative to where the command ran misleads once copied.
    internal static string RunFolder(string path) =>
        Directory.Exists(path)
            ? Path.GetFullPath(path)
            : throw new DirectoryNotFoundException($"'{path}' is not a run folder; runs are written to reports/<timestamp>/.");
}
