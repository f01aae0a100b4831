using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// Runs one series against a target that is up: adds the series to the recorder, drives its load (warm-up, then the
/// profile: <see cref="SeriesLoad"/>) while the target's counters are scraped (and, under <c>matrix</c>, its container
/// watched), then measures the ideal on the warmed, idle service (<see cref="Calibration"/>).
/// </summary>
internal sealed class SeriesRunner(IAnsiConsole console, RunContext run)
{
    public async Task RunAsync(PlannedSeries series, ServiceTarget target, CancellationToken cancellationToken)
    {
        var options = run.Options;
        var load = run.Load;
        var seriesId = series.Id;
        using var calls = SeriesCalls.For(series.Operation, target, options);
        var ideal = calls.IdealByConstruction;

        // Of several agents only the lead measures the ideal (ILoadShare.Calibrates); all meet to start the series together.
        if (options.SeriesGate is { } gate)
        {
            await gate.BeforeSeriesAsync(series.Index, seriesId, cancellationToken);
        }
        var offset = run.Clock.Elapsed.TotalSeconds;
        run.Recorder.AddSeries(new SeriesInfo(
            seriesId,
            target.Stack,
            series.Operation,
            target.Mode,
            target.Address?.ToString() ?? "none",
            run.LoadModel,
            calls.Parameters,
            offset,
            ideal?.LatencyMs,
            ideal?.Throughput,
            WarmUpSeconds: load.KnownWarmUpSeconds,
            Repetition: series.Repetition,
            Round: series.Round,
            Slot: series.Slot,
            IdealMethod: ideal?.Method));

        // A series the raw files could not take is not run.
        cancellationToken.ThrowIfCancellationRequested();

        run.Progress.Tracker.StartSeries(series.Index, seriesId);
        var follower = run.Follower?.StartSeries(new SeriesLabels(seriesId, target.Stack, series.Operation, target.Mode), warmsUp: load.WarmUp.Count > 0);
        using var watching = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var notOurs = options.Call is not null || options.UserScenarios.Count > 0;
        var scraper = (options.Agent?.Scrapes ?? true) && target.MetricsAddress is { } metricsAddress
            ? new ServerScraper(run.ScrapeHttp, run.Recorder, offset, run.Progress.Tracker, mayHaveNone: notOurs && target.MetricsGuessed)
                .RunAsync(seriesId, metricsAddress, watching.Token)
            : Task.CompletedTask;
        var runnerSampler = RunnerSampler.RunAsync(run.Recorder, seriesId, run.Clock, watching.Token);
        var runtime = options.RuntimeEvents && (options.Agent?.Scrapes ?? true) && target.Runtime is { } endpoint
            ? RuntimeSampler.RunAsync(endpoint, run.Recorder, seriesId, run.Clock, note => console.MarkupLineInterpolated($"[grey]  {seriesId}: {note}[/]"), watching.Token)
            : Task.CompletedTask;
        var watcher = run.Watcher?.WatchAsync(target, new SeriesWatch(seriesId, run.Recorder, offset, run.Clock), watching.Token) ?? Task.CompletedTask;
        var results = new List<ScenarioResult>();
        try
        {
            if (load.WarmUpRunsApart)
            {
                run.Progress.Tracker.StartScenario(0, TimeSpan.MaxValue, load.Duration - load.WarmUpLength);
                results.Add(await RunScenarioAsync(series, calls, load.WarmUp, 0, follower, cancellationToken));
                cancellationToken.ThrowIfCancellationRequested();

                // The measured load starts on a whole second of the series, so no second holds requests of both.
                var measuredFrom = (int)Math.Ceiling(run.Clock.Elapsed.TotalSeconds - offset);
                var wait = TimeSpan.FromSeconds(offset + measuredFrom) - run.Clock.Elapsed;
                if (wait > TimeSpan.Zero)
                {
                    await Task.Delay(wait, cancellationToken);
                }

                run.Recorder.SetWarmUp(seriesId, measuredFrom);
                run.Progress.Tracker.StartScenario(measuredFrom, TimeSpan.Zero, TimeSpan.Zero);
                results.Add(await RunScenarioAsync(series, calls, load.Profile, measuredFrom, follower, cancellationToken));
            }
            else
            {
                run.Progress.Tracker.StartScenario(0, load.WarmUpLength, TimeSpan.Zero);
                results.Add(await RunScenarioAsync(series, calls, load.Combined, 0, follower, cancellationToken));
            }
        }
        finally
        {
            await watching.CancelAsync();
            await scraper;
            await runnerSampler;
            await runtime;
            await watcher;
            run.Progress.EndSeries();
            run.Follower?.EndSeries(seriesId);
        }

        run.Recorder.EndSeries(seriesId, results.Sum(r => r.Requests));
        if (results.FirstOrDefault(r => r.StoppedByFailureLimit) is { } stopped)
        {
            run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", seriesId, $"stopped after {stopped.Failures} failures (--max-failures)"));
        }

        var inFlightAtEnd = results.Sum(r => r.InFlightAtEnd);
        if (inFlightAtEnd > 0)
        {
            run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", seriesId,
                $"{inFlightAtEnd} requests still in flight when the drain ran out were given up, each counted as a failure ({LoadRunner.InFlightAtEndStatus})"));
        }

        console.MarkupLineInterpolated(
            $"  {seriesId}: {results.Sum(r => r.Requests)} requests, {results.Sum(r => r.Failures)} failed, {run.Clock.Elapsed.TotalSeconds - offset:F0} s{WarmUpNote(load)}{InFlightAtEndNote(inFlightAtEnd)}");
        cancellationToken.ThrowIfCancellationRequested();

        // After the load, never during it: the service is as warm as the series made it, and idle.
        if (ideal is null && (options.Agent?.Calibrates ?? true))
        {
            ideal = await Calibration.MeasureLoneCallsAsync(
                calls.LoneCallAsync, calls.IsCpuBound, run.ScrapeHttp, target.MetricsAddress, options.Measurement.CallTimeout, cancellationToken);
            run.Recorder.SetIdeal(seriesId, ideal.LatencyMs, ideal.Throughput, ideal.Method);
            console.MarkupLineInterpolated($"  {seriesId}: ideal {(ideal.LatencyMs is { } ms ? $"{ms:0.###} ms" : "none")}, {ideal.Method}");
        }
    }

    /// <param name="secondsIntoSeries">Where the scenario starts in the series, in whole seconds.</param>
    private async Task<ScenarioResult> RunScenarioAsync(
        PlannedSeries series, SeriesCalls calls, IReadOnlyList<LoadSimulation> stages, int secondsIntoSeries, ISeriesFollower? follower, CancellationToken cancellationToken)
    {
        var options = run.Options;
        var firstFailures = new FirstFailures(note => run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", series.Id, note)));
        var scenario = calls.Scenario(series.Id, stages, firstFailures);
        var observer = new SeriesObserver(run, series.Id, secondsIntoSeries, follower);
        observer.RecordStart(stages);
        return await LoadRunner.RunAsync(
            scenario,
            observer,
            new LoadRunnerOptions { MaxFailures = options.MaxFailures, Backoff = options.Measurement.Backoff },
            cancellationToken);
    }

    private static string InFlightAtEndNote(long inFlightAtEnd) =>
        inFlightAtEnd == 0 ? "" : $", {inFlightAtEnd} of them given up in flight at the end ({LoadRunner.InFlightAtEndStatus})";

    private static string WarmUpNote(SeriesLoad load) =>
        load.WarmUp.Count == 0 ? "" : load.WarmUpRunsApart ? " (a warm-up burst first)" : $" ({load.WarmUpLength.TotalSeconds:0.#} s of warm-up)";
}
