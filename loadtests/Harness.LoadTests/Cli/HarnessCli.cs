using System.CommandLine;
using Harness.LoadTests.Calls;
using Harness.LoadTests.Containers;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Formats;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Cli;

/// <summary>The <c>harness</c> command tree: <c>run</c> (the default), <c>matrix</c>, <c>compare</c>, <c>report</c>, <c>calibrate</c> and <c>merge</c>.</summary>
internal static class HarnessCli
{
    /// <summary>Parses and runs <paramref name="args"/>; a command line that does not parse gets one line and exit code 2, not the help.</summary>
    /// <param name="scenarios">A user's own scenarios (<see cref="HarnessApp"/>), which replace the harness's operations; empty for <c>harness</c>.</param>
    public static Task<int> InvokeAsync(
        IAnsiConsole console,
        string[] args,
        InvocationConfiguration? configuration = null,
        CancellationToken cancellationToken = default,
        IReadOnlyList<Engine.Scenario>? scenarios = null)
    {
        var parse = Create(console, scenarios ?? []).Parse(args);
        return ParseErrors.Describe(parse) is { } error
            ? Task.FromResult(Usage(console, error))
            : parse.InvokeAsync(configuration, cancellationToken);
    }

    public static RootCommand Create(IAnsiConsole console, IReadOnlyList<Engine.Scenario>? scenarios = null)
    {
        scenarios ??= [];
        var root = new RootCommand(
            "Load-tests the Harness sample services in each scheduling mode and writes a comparison report. " +
            "With no command, runs the embedded default: the stub and both services started locally, every mode in turn.");

        var rootOptions = new RunCommandOptions { UserScenarios = scenarios };
        rootOptions.AddTo(root);
        var rootAgent = new AgentCommandOptions();
        rootAgent.AddTo(root);
        root.SetAction((parse, ct) => RunAsync(console, rootOptions, rootAgent, parse, ct));

        var run = new Command("run", "Run the scenarios against local services (default) or --target services, then write the report.");
        var runOptions = new RunCommandOptions { UserScenarios = scenarios };
        runOptions.AddTo(run);
        var runAgent = new AgentCommandOptions();
        runAgent.AddTo(run);
        run.SetAction((parse, ct) => RunAsync(console, runOptions, runAgent, parse, ct));
        root.Subcommands.Add(run);

        var matrix = new Command(
            "matrix",
            "Run each scheduling mode in its own container (Docker), one mode after another under identical CPU and memory limits, and compare them in one report.");
        var matrixOptions = new MatrixCommandOptions();
        matrixOptions.AddTo(matrix);
        matrix.SetAction((parse, ct) => MatrixAsync(console, matrixOptions, parse, ct));
        root.Subcommands.Add(matrix);

        var runA = new Argument<string>("RUN_A") { Description = "A run folder (reports/<timestamp>)." };
        var runB = new Argument<string[]>("RUN_B") { Description = "One or more run folders (RUN_B [RUN_C…]), each compared against RUN_A.", Arity = ArgumentArity.OneOrMore };
        var failOn = new Option<string?>("--fail-on-regression") { Description = "e.g. 5%: exit 1 when a series' mean or p99 got worse than in RUN_A by more than this beyond its noise; exit 2 when the runs differ in profile, time scale or operation." };
        var compareOutput = new Option<string?>("--output") { Description = "Folder for the comparison report (default: beside RUN_B, compare-<A>-vs-<B>)." };
        var compare = new Command("compare", "Compare runs with RUN_A, series by series: console table, HTML and Markdown report.") { runA, runB, failOn, compareOutput };
        compare.SetAction(parse => Guarded(console, () =>
        {
            var folders = parse.GetValue(runB)!.Prepend(parse.GetValue(runA)!).Select(RunFolder).ToList();
            var warnings = new List<string>();
            var runs = folders.Select(f => { var run = RawRunReader.Read(f, out var w); warnings.AddRange(w); return run; }).ToList();
            var outcome = ComparisonWriter.Run(
                runs, parse.GetValue(compareOutput) ?? ComparisonWriter.DefaultDirectory(folders[1], runs),
                parse.GetValue(failOn) is { } limit ? ComparisonWriter.ParsePercent(limit) : null, warnings);
            if (outcome.Refusal is { } refusal)
            {
                return Usage(console, refusal);
            }

            warnings.ForEach(w => console.MarkupLineInterpolated($"[yellow]warning:[/] {w}"));
            outcome.SeriesBySeries.ToList().ForEach(console.WriteLine);
            outcome.GateLines.ToList().ForEach(console.WriteLine);
            console.MarkupLineInterpolated($"[green]Comparison:[/] {outcome.Files!.Html}");
            return outcome.ExitCode;
        }));
        root.Subcommands.Add(compare);

        var runFolder = new Argument<string>("RUN") { Description = "A run folder (reports/<timestamp>)." };
        var report = new Command("report", "Render a run's reports again from its raw files.") { runFolder };
        report.SetAction(parse => Guarded(console, () =>
        {
            return RunReport.Render(console, RunFolder(parse.GetValue(runFolder)!), []);
        }));
        root.Subcommands.Add(report);

        root.Subcommands.Add(CalibrateCommand.Create(console));
        root.Subcommands.Add(MergeCommand.Create(console));
        root.Subcommands.Add(CoordinateCommand.Create(console));
        return root;
    }

    private static async Task<int> RunAsync(
        IAnsiConsole console, RunCommandOptions options, AgentCommandOptions agentOptions, ParseResult parse, CancellationToken cancellationToken)
    {
        RunOptions run;
        AgentRequest? agent;
        try
        {
            (run, var merged) = RunConfigFile.Bind(parse, options, p => (options.Bind(p, CommandLine(parse)), p));
            agent = agentOptions.Bind(merged, run, Environment.GetEnvironmentVariable);
        }
        catch (UsageException ex)
        {
            return Usage(console, ex.Message);
        }

        if (run.CallRequest is { } request)
        {
            try
            {
                run = run with { Call = await CallSetup.ResolveAsync(console, request, run.Targets[0], cancellationToken) };
            }
            catch (CallSetupException ex)
            {
                return Usage(console, ex.Message);
            }
        }

        if (agent is not null)
        {
            return await AgentRun.RunAsync(console, run, agent, cancellationToken);
        }

        await using var targets = TargetsFor(console, run);
        return await OrchestrateAsync(console, run, targets, afterRun: null, cancellationToken);
    }

    /// <summary>The services a run loads: <c>--target</c>s, else local ones started mode by mode.</summary>
    internal static ITargetProvider TargetsFor(IAnsiConsole console, RunOptions run) =>
        run.Targets.Count > 0 ? new ExternalTargets(run.Targets)
        : run.UserScenarios.Count > 0 ? new NoTargets()
        : new LocalTargets(run.Stacks, message => console.MarkupLineInterpolated($"[grey]{message}[/]"));

    private static async Task<int> MatrixAsync(IAnsiConsole console, MatrixCommandOptions options, ParseResult parse, CancellationToken cancellationToken)
    {
        (RunOptions Run, MatrixSettings Settings) bound;
        try
        {
            bound = RunConfigFile.Bind(parse, options.Run, p => options.Bind(p, CommandLine(parse)));
        }
        catch (UsageException ex)
        {
            return Usage(console, ex.Message);
        }

        var settings = bound.Settings;
        DockerTargets targets;
        try
        {
            console.MarkupLineInterpolated(
                $"[grey]matrix: {string.Join(", ", bound.Run.Modes.Distinct())} in containers, {settings.Cpus} CPU and {settings.MemoryBytes >> 20} MiB each, at {settings.DockerHost}[/]");
            targets = await DockerTargets.CreateAsync(settings, message => console.MarkupLineInterpolated($"[grey]{message}[/]"), cancellationToken);
            console.MarkupLineInterpolated($"[grey]containers and network labelled harness.run={targets.RunId}[/]");
        }
        catch (DockerUnavailableException ex)
        {
            return Usage(console, ex.Message);
        }

        await using (targets)
        {
            // A second Ctrl+C ends the process before DisposeAsync: the containers go then, within a bound.
            using var emergency = EmergencyStop.Register(() => targets.RemoveRunAsync().Wait(TimeSpan.FromSeconds(15)));
            return await OrchestrateAsync(
                console,
                bound.Run,
                targets,
                () => console.MarkupLineInterpolated($"[grey]time to healthy: {string.Join("; ", targets.HealthTimes)}[/]"),
                cancellationToken);
        }
    }

    /// <summary>Runs the orchestrator; <paramref name="afterRun"/> runs only when it returned (whatever its exit code).</summary>
    private static async Task<int> OrchestrateAsync(
        IAnsiConsole console, RunOptions run, ITargetProvider targets, Action? afterRun, CancellationToken cancellationToken)
    {
        try
        {
            var exit = await new RunOrchestrator(console).RunAsync(run, targets, cancellationToken);
            afterRun?.Invoke();
            return exit;
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            // System.CommandLine reports a stray OperationCanceledException as a bare exit code 1; say what broke.
            console.MarkupLineInterpolated($"[red]error:[/] the run failed: {ex}");
            return ExitCodes.RunFailed;
        }
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

    private static int Guarded(IAnsiConsole console, Func<int> action)
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
    private static string RunFolder(string path) =>
        Directory.Exists(path)
            ? Path.GetFullPath(path)
            : throw new DirectoryNotFoundException($"'{path}' is not a run folder; runs are written to reports/<timestamp>/.");
}
