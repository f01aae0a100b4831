using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using Harness.Contracts;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Formats;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// <c>harness run</c>: for each mode, acquire its targets, run every stack × operation series one after another
/// while scraping the target's counters, then write the raw files, render the report from them, and check the
/// thresholds. The raw files and the report are written even when a target fails or the run is interrupted.
/// </summary>
public sealed class RunOrchestrator(IAnsiConsole console)
{
    public const int ExitOk = 0;
    public const int ExitThresholdBreached = 1;
    public const int ExitInterrupted = 130;

    public async Task<int> RunAsync(RunOptions options, ITargetProvider targets, CancellationToken cancellationToken)
    {
        var runId = DateTimeOffset.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        var runDirectory = Path.GetFullPath(Path.Combine(options.OutputDirectory, runId));
        Directory.CreateDirectory(runDirectory);

        var simulations = options.Profile.ToSimulations();
        var seriesDuration = options.Profile.Duration;
        var plan = (from mode in targets.Modes
                    from stack in options.Stacks
                    from operation in options.Operations
                    select (Mode: mode, Stack: stack, Operation: operation)).ToList();
        var manifest = new RunManifest(
            RunManifest.CurrentFormatVersion,
            runId,
            DateTimeOffset.Now,
            options.Profile.Name,
            options.Profile.ToJson(),
            options.TimeScale,
            targets.Modes,
            [],
            new MachineInfo(
                Environment.ProcessorCount,
                System.Runtime.InteropServices.RuntimeInformation.OSDescription,
                Environment.Version.ToString(),
                typeof(RunOrchestrator).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown"),
            options.CommandLine,
            [Environment.MachineName]);

        console.MarkupLineInterpolated(
            $"[bold]harness run[/] {options.Profile.Name}: {plan.Count} series of {seriesDuration:hh\\:mm\\:ss} ({string.Join(", ", targets.Modes)} × {string.Join(", ", options.Stacks)} × {string.Join(", ", options.Operations)}), writing {runDirectory}");

        using var recorder = new RunRecorder(manifest, runDirectory);
        var progress = new ProgressPrinter(console, plan.Count, seriesDuration);
        var started = Stopwatch.StartNew();
        var interrupted = false;
        using var scrapeHttp = new HttpClient();
        using var ticking = new CancellationTokenSource();
        var ticker = TickAsync(recorder, started, ticking.Token);
        try
        {
            foreach (var modeGroup in plan.GroupBy(p => p.Mode))
            {
                IReadOnlyList<ServiceTarget> modeTargets;
                try
                {
                    modeTargets = await targets.AcquireAsync(modeGroup.Key, cancellationToken);
                }
                catch (InvalidOperationException ex)
                {
                    // One mode failing to start must not cost the others their results.
                    console.MarkupLineInterpolated($"[red]{modeGroup.Key}: could not start its services; its series are skipped.[/]");
                    console.WriteLine(ex.Message);
                    recorder.RecordEvent(new RunEvent(started.Elapsed.TotalSeconds, "target-down", null, $"{modeGroup.Key}: {ex.Message}"));
                    continue;
                }

                try
                {
                    foreach (var (mode, stack, operation) in modeGroup)
                    {
                        var target = modeTargets.Single(t => t.Stack == stack);
                        await RunSeriesAsync(
                            plan.IndexOf((mode, stack, operation)), target, operation, options, simulations,
                            recorder, progress, scrapeHttp, started, targets as ISeriesWatcher, cancellationToken);
                    }
                }
                finally
                {
                    await targets.ReleaseAsync(modeGroup.Key);
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            interrupted = true;
            console.MarkupLine("[yellow]Interrupted: writing what was recorded so far.[/]");
            recorder.RecordEvent(new RunEvent(started.Elapsed.TotalSeconds, "note", null, "Run interrupted by the user."));
        }
        finally
        {
            await ticking.CancelAsync();
            await ticker;
            recorder.Complete();
        }

        var run = RawRunReader.Read(runDirectory, out var warnings);
        foreach (var warning in warnings)
        {
            console.MarkupLineInterpolated($"[yellow]warning:[/] {warning}");
        }

        var results = ThresholdEvaluator.Evaluate(run, options.Thresholds);
        var written = ReportWriter.WriteAll(run, runDirectory, results, warnings);
        if (results.Count > 0)
        {
            console.WriteLine(ThresholdEvaluator.ToText(results));
        }

        console.MarkupLineInterpolated($"[green]Report:[/] {written.Html}");
        var breached = results.Count(r => !r.Passed);
        return interrupted ? ExitInterrupted : breached > 0 ? ExitThresholdBreached : ExitOk;
    }

    private async Task RunSeriesAsync(
        int index,
        ServiceTarget target,
        string operation,
        RunOptions options,
        IReadOnlyList<LoadSimulation> simulations,
        RunRecorder recorder,
        ProgressPrinter progress,
        HttpClient scrapeHttp,
        Stopwatch runClock,
        ISeriesWatcher? watcher,
        CancellationToken cancellationToken)
    {
        var seriesId = $"{target.Stack}-{operation}-{target.Mode}";
        using IHarnessClient client = target.Stack == Stacks.Soap ? new HarnessSoapClient(target.Address) : new HarnessGrpcClient(target.Address);
        var (idealLatency, idealThroughput) = await CalibrateAsync(client, operation, options.Settings, cancellationToken);
        var offset = runClock.Elapsed.TotalSeconds;
        recorder.AddSeries(new SeriesInfo(
            seriesId,
            target.Stack,
            operation,
            target.Mode,
            target.Address.ToString(),
            options.Profile.IsOpenModel ? "open" : "closed",
            options.Settings.For(operation),
            offset,
            idealLatency,
            idealThroughput));

        var scenario = operation == Operations.Compute
            ? ComputeScenario.Create(seriesId, client, options.Settings, simulations)
            : CallThirdPartyScenario.Create(seriesId, client, options.Settings, simulations);

        progress.StartSeries(index, seriesId);
        using var scraping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var scraper = new ServerScraper(scrapeHttp, recorder, offset).RunAsync(seriesId, target.MetricsAddress, scraping.Token);
        var watching = watcher?.WatchAsync(target, new SeriesWatch(seriesId, recorder, offset, runClock), scraping.Token) ?? Task.CompletedTask;
        ScenarioResult result;
        try
        {
            result = await LoadRunner.RunAsync(
                scenario,
                new SeriesObserver(recorder, seriesId, scenario.IsOpenModel, progress),
                new LoadRunnerOptions { MaxFailures = options.MaxFailures },
                cancellationToken);
        }
        finally
        {
            await scraping.CancelAsync();
            await scraper;
            await watching;
            progress.EndSeries();
        }

        if (result.StoppedByFailureLimit)
        {
            recorder.RecordEvent(new RunEvent(runClock.Elapsed.TotalSeconds, "note", seriesId, $"stopped after {result.Failures} failures (--max-failures)"));
        }

        console.MarkupLineInterpolated(
            $"  {seriesId}: {result.Requests} requests, {result.Failures} failed, {result.Elapsed.TotalSeconds:F0} s");
        cancellationToken.ThrowIfCancellationRequested();
    }

    /// <summary>Once a second the recorder writes the seconds that are over, so a crash loses at most the last few.</summary>
    private static async Task TickAsync(RunRecorder recorder, Stopwatch clock, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                recorder.Tick(clock.Elapsed);
            }
        }
        catch (OperationCanceledException)
        {
            // The run is over; Complete writes the rest.
        }
    }

    /// <summary>
    /// A few lone calls before the load: they warm the service's code paths (so modes start equal) and give the
    /// ideal lines: the fastest lone call, and for Compute the throughput of one such call per core.
    /// </summary>
    private static async Task<(double? LatencyMs, double? Throughput)> CalibrateAsync(
        IHarnessClient client, string operation, OperationSettings settings, CancellationToken cancellationToken)
    {
        if (operation == Operations.CallThirdParty)
        {
            // Ideal: every call in parallel, each taking exactly the stub's delay.
            var waves = settings.Parallelism == 0 ? 1 : (int)Math.Ceiling(settings.Fanout / (double)settings.Parallelism);
            try
            {
                await client.CallThirdPartyAsync(settings.Fanout, 1, settings.Style, settings.Parallelism, cancellationToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // A failing target is measured by the run itself; the warm-up only prepares.
            }

            return (settings.DelayMs * (double)waves, null);
        }

        // The first calls pay for compiling the service's path; only the fastest of the later ones is a lone call's time.
        const int WarmUpCalls = 5;
        const int MeasuredCalls = 5;
        var fastest = double.MaxValue;
        for (var i = 0; i < WarmUpCalls + MeasuredCalls; i++)
        {
            var stopwatch = Stopwatch.StartNew();
            try
            {
                await client.ComputeAsync(settings.Iterations, cancellationToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                return (null, null);
            }

            if (i >= WarmUpCalls)
            {
                fastest = Math.Min(fastest, stopwatch.Elapsed.TotalMilliseconds);
            }
        }

        return (fastest, Environment.ProcessorCount * 1000 / fastest);
    }
}
