using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;
using Harness.LoadTests.Common;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// <c>harness run</c>'s lifecycle: for each mode, acquire its targets, run its series one after another
/// (<see cref="SeriesRunner"/>), release them; then write the raw files, render the report from them, and check the
/// thresholds. The raw files and the report are written even when a target fails or the run is interrupted.
/// </summary>
/// <param name="sinks">Who follows the run from outside while it lasts (<c>--metrics-port</c>, OTLP, <c>--live</c>).</param>
internal sealed class RunOrchestrator(IAnsiConsole console, RunSinks sinks)
{
    /// <summary>The options as a <c>--config</c> file, in every run folder (<see cref="RunOptions.EffectiveConfig"/>).</summary>
    public const string ConfigFileName = "run-config.json";

    /// <summary>The run folder, once <see cref="RunAsync"/> has chosen it.</summary>
    public string? RunDirectory { get; private set; }

    /// <returns>One of <see cref="ExitCodes"/>: the worst of what happened (recording failed, report not written, interrupted, threshold breached).</returns>
    public async Task<int> RunAsync(RunOptions options, ITargetProvider targets, CancellationToken cancellationToken)
    {
        // An agent of a distributed run shares the run's id and writes its own folder, agent-I-of-N (Distributed/).
        var runId = options.Agent?.RunId ?? DateTimeOffset.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        var runDirectory = RunDirectory = Path.GetFullPath(Path.Combine(options.OutputDirectory, options.Agent?.FolderName ?? runId));
        var plan = RunPlan.Create(options.Modes, options.Repeat, options.Stacks, options.Operations);
        var modes = options.Modes.Distinct().ToList();
        var seriesCount = plan.Sum(m => m.Series.Count);
        var load = options.SeriesLoad();
        var seriesDuration = load.Duration;
        console.MarkupLineInterpolated(
            $"[bold]harness run[/] {options.Profile.Name}: {(options.RepeatUntilSettled ? "up to " : "")}{seriesCount} series of {(options.Profile.HasBursts ? "up to " : "")}{options.Profile.Duration:hh\\:mm\\:ss}{WarmUp(load)} ({string.Join(", ", modes)} × {string.Join(", ", options.Stacks)} × {string.Join(", ", options.Operations)}{Order(plan)}), writing {runDirectory}");

        // Before any folder or load: a metrics port that cannot be listened on is bad input.
        IRunSink? telemetry;
        try
        {
            telemetry = sinks.Telemetry is { } start ? await start(options, runId, cancellationToken) : null;
        }
        catch (UsageException ex)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
        }

        // Served until the report is written, so a last scrape sees the run's final counts.
        await using var following = telemetry;
        foreach (var line in telemetry?.Describe() ?? [])
        {
            console.WriteLine(line);
        }

        RunRecorder recorder;
        try
        {
            Directory.CreateDirectory(runDirectory);
            recorder = new RunRecorder(NewManifest(runId, options, modes), runDirectory);

            // `harness run --config <folder>/run-config.json` repeats the run.
            if (options.EffectiveConfig is { } config)
            {
                File.WriteAllText(Path.Combine(runDirectory, ConfigFileName), config);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] could not create the run folder {runDirectory} ({ex.Message}); nothing was run.");
            return ExitCodes.OutputFailed;
        }

        if (OutputSpace.Warning(runDirectory, seriesCount, seriesDuration) is { } warning)
        {
            console.MarkupLineInterpolated($"[yellow]warning:[/] {warning}");
        }

        bool interrupted;
        using (var recording = new GuardedRecorder(recorder, cancellationToken))
        {
            interrupted = await RecordAsync(options, targets, plan, recording, telemetry, cancellationToken);
            if (recording.Failure is { } failure)
            {
                var free = OutputSpace.FreeBytes(runDirectory) is { } bytes ? OutputSpace.Format(bytes) : "unknown space";
                console.MarkupLineInterpolated(
                    $"[red]error:[/] could not write the raw files in {runDirectory} ({failure.Message}; {free} free), so the run stopped. What was written before is kept (run.json, events.jsonl, the seconds of series/ up to the failure); `harness report {runDirectory}` renders it once there is room.");
                return ExitCodes.RecordingFailed;
            }
        }

        var exit = RunReport.Render(console, runDirectory, options.Thresholds);
        return exit == ExitCodes.OutputFailed || !interrupted ? exit : ExitCodes.Interrupted;
    }

    /// <summary>Runs the plan into the recorder, then completes it; true when the user interrupted the run.</summary>
    private async Task<bool> RecordAsync(
        RunOptions options, ITargetProvider targets, IReadOnlyList<ModeRun> plan, GuardedRecorder recording, IRunSink? telemetry,
        CancellationToken cancellationToken)
    {
        using var scrapeHttp = ServerScraper.NewHttpClient();
        var progress = new ProgressPrinter(console, new ProgressTracker(plan.Sum(m => m.Series.Count), options.SeriesLoad().Duration));
        var run = new RunContext(options, recording, progress, scrapeHttp, targets as ISeriesWatcher) { Follower = telemetry?.Follower };
        if (telemetry is not null)
        {
            progress.SecondPassed += telemetry.SecondPassed;
        }

        await using var live = options.Live && sinks.Live is { } startLive
            ? await startLive($"{options.Profile.Name} · {Path.GetFileName(RunDirectory)}", cancellationToken)
            : null;
        if (live is not null)
        {
            progress.SecondPassed += live.SecondPassed;
            foreach (var line in live.Describe())
            {
                console.WriteLine(line);
            }
        }

        using var ticking = new CancellationTokenSource();
        var ticker = TickAsync(run, ticking.Token);
        try
        {
            var rule = options.RepeatUntilSettled ? SequentialRule.Create(options.Repeat) : null;
            for (var i = 0; i < plan.Count; i++)
            {
                await RunModeAsync(run, plan[i], targets, first: i == 0, recording.Token);
                var endsRound = i == plan.Count - 1 || plan[i + 1].Round != plan[i].Round;
                if (rule is not null && endsRound && rule.IsLook(plan[i].Round) && i < plan.Count - 1 && IsSettled(run, rule, plan[i].Round))
                {
                    break;
                }
            }

            return false;
        }
        catch (OperationCanceledException) when (recording.Failed)
        {
            // A write failed; RunAsync says so once the services are stopped.
            return cancellationToken.IsCancellationRequested;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            console.MarkupLine("[yellow]Interrupted: writing what was recorded so far.[/]");
            recording.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", null, "Run interrupted by the user."));
            return true;
        }
        finally
        {
            await ticking.CancelAsync();
            await ticker;
            recording.Complete();
        }
    }

    /// <summary>
    /// A look of <c>--repeat auto</c> after <paramref name="rounds"/> rounds: the run so far read back from its own
    /// folder and judged as the report will judge it (<see cref="RepetitionSettlement"/>), said on the console and as
    /// an event. True when every comparison is settled, so no further round is needed.
    /// </summary>
    private bool IsSettled(RunContext run, SequentialRule rule, int rounds)
    {
        run.Recorder.Checkpoint();
        var data = RawRunReader.Read(run.Recorder.RunDirectory);
        var settlement = RepetitionSettlement.Replay(rule, data.Manifest.Modes, SeriesSummary.ForRun(data));
        var settled = settlement.Comparisons.Count(c => c.IsSettled);
        var line = string.Create(CultureInfo.InvariantCulture,
            $"repeat auto, after round {rounds} of at most {rule.MaxRounds}: {settled} of {settlement.Comparisons.Count} comparisons settled");
        console.WriteLine(settlement.AllSettled ? line + "; stopping." : line + "; another two rounds.");
        run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", null, line + "."));
        return settlement.AllSettled;
    }

    /// <summary>Starts one mode's targets, runs its series, and stops them, whatever happened.</summary>
    /// <param name="first">The run's first mode: its targets also warm the runner's own client paths up (<see cref="ClientWarmUp"/>).</param>
    private async Task RunModeAsync(RunContext run, ModeRun modeRun, ITargetProvider targets, bool first, CancellationToken cancellationToken)
    {
        IReadOnlyList<ServiceTarget> modeTargets;
        try
        {
            modeTargets = await targets.AcquireAsync(modeRun.Mode, cancellationToken);
        }
        catch (InvalidOperationException ex)
        {
            // One mode failing to start must not cost the others their results.
            console.MarkupLineInterpolated($"[red]{modeRun.Label}: could not start its services; its series are skipped.[/]");
            console.WriteLine(ex.Message);
            run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "target-down", null, $"{modeRun.Label}: {ex.Message}"));
            return;
        }

        try
        {
            if (first)
            {
                await ClientWarmUp.RunAsync(modeTargets, run.Options, cancellationToken);
            }

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

    private static string WarmUp(SeriesLoad load) =>
        load.WarmUp.Count == 0 ? ", no warm-up"
        : load.WarmUpRunsApart ? " after a warm-up burst"
        : $" after {load.WarmUpLength:hh\\:mm\\:ss} of warm-up";

    // A mode that runs more than once: say in which order, since that is what balances the repetitions.
    // (A mode's operations each have a ModeRun of their own; the order names each place once.)
    private static string Order(IReadOnlyList<ModeRun> plan) =>
        plan.Any(m => m.Repetition > 0)
            ? "; modes in the order " + string.Join(" ", plan.Where((m, i) => i == 0 || plan[i - 1].Label != m.Label || plan[i - 1].Round != m.Round).Select(m => m.Label))
            : "";

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
        [options.Agent?.Label(Environment.MachineName) ?? Environment.MachineName],
        options.RepeatUntilSettled ? options.Repeat : 0);

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
