using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// <c>harness run</c>'s lifecycle: for each mode, acquire its targets, run its series one after another
/// (<see cref="SeriesRunner"/>), release them; then write the raw files, render the report from them, and check the
/// thresholds. The raw files and the report are written even when a target fails or the run is interrupted.
/// </summary>
internal sealed class RunOrchestrator(IAnsiConsole console)
{
    public const int ExitOk = 0;
    public const int ExitThresholdBreached = 1;
    public const int ExitInterrupted = 130;

    public async Task<int> RunAsync(RunOptions options, ITargetProvider targets, CancellationToken cancellationToken)
    {
        var runId = DateTimeOffset.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        var runDirectory = Path.GetFullPath(Path.Combine(options.OutputDirectory, runId));
        Directory.CreateDirectory(runDirectory);

        var plan = RunPlan.Create(targets.Modes, options.Stacks, options.Operations);
        var seriesCount = plan.Sum(m => m.Series.Count);
        var seriesDuration = options.Profile.Duration;
        console.MarkupLineInterpolated(
            $"[bold]harness run[/] {options.Profile.Name}: {seriesCount} series of {seriesDuration:hh\\:mm\\:ss} ({string.Join(", ", targets.Modes)} × {string.Join(", ", options.Stacks)} × {string.Join(", ", options.Operations)}), writing {runDirectory}");

        using var recorder = new RunRecorder(NewManifest(runId, options, targets.Modes), runDirectory);
        using var scrapeHttp = new HttpClient();
        var run = new RunContext(options, recorder, new ProgressPrinter(console, seriesCount, seriesDuration), scrapeHttp, targets as ISeriesWatcher);
        var interrupted = false;
        using var ticking = new CancellationTokenSource();
        var ticker = TickAsync(run, ticking.Token);
        try
        {
            foreach (var modeRun in plan)
            {
                await RunModeAsync(run, modeRun, targets, cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            interrupted = true;
            console.MarkupLine("[yellow]Interrupted: writing what was recorded so far.[/]");
            recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", null, "Run interrupted by the user."));
        }
        finally
        {
            await ticking.CancelAsync();
            await ticker;
            recorder.Complete();
        }

        var data = RawRunReader.Read(runDirectory, out var warnings);
        foreach (var warning in warnings)
        {
            console.MarkupLineInterpolated($"[yellow]warning:[/] {warning}");
        }

        var results = ThresholdEvaluator.Evaluate(data, options.Thresholds);
        var written = ReportWriter.WriteAll(data, runDirectory, results);
        if (results.Count > 0)
        {
            console.WriteLine(ThresholdEvaluator.ToText(results));
        }

        console.MarkupLineInterpolated($"[green]Report:[/] {written.Html}");
        var breached = results.Count(r => !r.Passed);
        return interrupted ? ExitInterrupted : breached > 0 ? ExitThresholdBreached : ExitOk;
    }

    /// <summary>Starts one mode's targets, runs its series, and stops them, whatever happened.</summary>
    private async Task RunModeAsync(RunContext run, ModeRun modeRun, ITargetProvider targets, CancellationToken cancellationToken)
    {
        IReadOnlyList<ServiceTarget> modeTargets;
        try
        {
            modeTargets = await targets.AcquireAsync(modeRun.Mode, cancellationToken);
        }
        catch (InvalidOperationException ex)
        {
            // One mode failing to start must not cost the others their results.
            console.MarkupLineInterpolated($"[red]{modeRun.Mode}: could not start its services; its series are skipped.[/]");
            console.WriteLine(ex.Message);
            run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "target-down", null, $"{modeRun.Mode}: {ex.Message}"));
            return;
        }

        try
        {
            var series = new SeriesRunner(console, run);
            foreach (var planned in modeRun.Series)
            {
                await series.RunAsync(planned, modeTargets.Single(t => t.Stack == planned.Stack), cancellationToken);
            }
        }
        finally
        {
            await targets.ReleaseAsync(modeRun.Mode);
        }
    }

    private static RunManifest NewManifest(string runId, RunOptions options, IReadOnlyList<string> modes) => new(
        RunManifest.CurrentFormatVersion,
        runId,
        DateTimeOffset.Now,
        options.Profile.Name,
        options.Profile.ToJson(),
        options.TimeScale,
        modes,
        [],
        new MachineInfo(
            Environment.ProcessorCount,
            RuntimeInformation.OSDescription,
            Environment.Version.ToString(),
            typeof(RunOrchestrator).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown"),
        options.CommandLine,
        [Environment.MachineName]);

    /// <summary>Once a second the recorder writes the seconds that are over, so a crash loses at most the last few.</summary>
    private static async Task TickAsync(RunContext run, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                run.Recorder.Tick(run.Clock.Elapsed);
            }
        }
        catch (OperationCanceledException)
        {
            // The run is over; Complete writes the rest.
        }
    }
}
