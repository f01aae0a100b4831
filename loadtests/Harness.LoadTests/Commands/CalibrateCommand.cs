using System.CommandLine;
using Harness.LoadTests.Common;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Formats;
using Harness.LoadTests.Running;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness calibrate</c>: one mode run twice in one run (A/A), each time with services started afresh
/// and warmed up, then how much the two series differ (<see cref="NoiseFloor"/>): the machine's noise floor, below
/// which a difference between modes means nothing. Every option of <c>run</c> applies; the defaults differ.
/// </summary>
internal static class CalibrateCommand
{
    public const int DefaultIterations = 5_000_000;

    public static Command Create(IAnsiConsole console)
    {
        var command = new Command(
            "calibrate",
            "Measure this machine's noise floor: run one mode twice (A/A), each time with services of its own, and compare the two series on mean, p50, p99 and req/s (±5 % mean, ±10 % p99); writes the usual run folder and report. Every run option applies; --repeat N runs the mode 2N times.");
        var options = NewOptions();
        options.AddTo(command);
        command.SetAction((parse, ct) => RunAsync(console, options, parse, ct));
        return command;
    }

    /// <summary>The options of <c>run</c>, with calibrate's defaults: profile <c>aa</c>, gRPC, Compute of 5,000,000 iterations, threadpool.</summary>
    public static RunCommandOptions NewOptions()
    {
        var options = new RunCommandOptions();
        options.Profile.DefaultValueFactory = _ => "aa";
        options.Stacks.DefaultValueFactory = _ => Stacks.Grpc;
        options.Operations.DefaultValueFactory = _ => Operations.Compute;
        options.Modes.DefaultValueFactory = _ => "threadpool";
        options.Modes.Description = "The one scheduling mode compared with itself: threadpool, iocp or custompool.";
        options.Iterations.DefaultValueFactory = _ => DefaultIterations;
        return options;
    }

    /// <summary>The run an A/A calibration makes of <paramref name="run"/>: its one mode, twice (and <c>--repeat</c> times that).</summary>
    /// <exception cref="UsageException">More than one mode is named.</exception>
    public static RunOptions Pair(RunOptions run)
    {
        var modes = run.Modes.Distinct().ToList();
        return modes.Count == 1
            ? run with { Modes = [modes[0], modes[0]] }
            : throw new UsageException(
                $"calibrate compares one mode with itself; {string.Join(", ", modes)} are {modes.Count}: give one, e.g. --modes {modes[0]} (or targets of one mode=).");
    }

    private static async Task<int> RunAsync(IAnsiConsole console, RunCommandOptions options, ParseResult parse, CancellationToken cancellationToken)
    {
        RunOptions run;
        try
        {
            run = Pair(RunConfigFile.Bind(parse, options, p => options.Bind(p, HarnessCli.CommandLine(parse))));
            if (run.CallRequest is not null)
            {
                throw new UsageException("calibrate measures the machine's noise floor with the harness's own Compute; --call is for harness run.");
            }
        }
        catch (UsageException ex)
        {
            return HarnessCli.Usage(console, ex.Message);
        }

        await using var targets = RunCommand.TargetsFor(console, run);
        var orchestrator = new RunOrchestrator(console, RunCommand.Sinks);
        int exit;
        try
        {
            exit = await orchestrator.RunAsync(run, targets, cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            console.MarkupLineInterpolated($"[red]error:[/] the run failed: {ex}");
            return ExitCodes.RunFailed;
        }

        if (exit is ExitCodes.Ok or ExitCodes.ThresholdBreached && orchestrator.RunDirectory is { } folder)
        {
            console.WriteLine();
            console.WriteLine(NoiseFloorText.ToText(NoiseFloor.From(RawRunReader.Read(folder))));
        }

        return exit;
    }
}
