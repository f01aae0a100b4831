using Harness.Contracts;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// Runs one series against a target that is up: calibrates the ideal, adds the series to the recorder, then drives
/// the load while the target's counters are scraped (and, under <c>matrix</c>, its container watched).
/// </summary>
internal sealed class SeriesRunner(IAnsiConsole console, RunContext run)
{
    public async Task RunAsync(PlannedSeries series, ServiceTarget target, CancellationToken cancellationToken)
    {
        var options = run.Options;
        var seriesId = series.Id;
        using IHarnessClient client = target.Stack == Stacks.Soap ? new HarnessSoapClient(target.Address) : new HarnessGrpcClient(target.Address);
        // Of several agents only the lead calibrates (AgentSettings.Calibrates), then all meet to start the series together.
        var (idealLatency, idealThroughput) = options.Agent?.Calibrates ?? true
            ? await Calibration.MeasureAsync(client, series.Operation, options.Settings, cancellationToken)
            : default;
        await AgentRun.BeforeSeriesAsync(options.Agent, series.Index, seriesId, cancellationToken);
        var offset = run.Clock.Elapsed.TotalSeconds;
        run.Recorder.AddSeries(new SeriesInfo(
            seriesId,
            target.Stack,
            series.Operation,
            target.Mode,
            target.Address.ToString(),
            run.LoadModel,
            options.Settings.For(series.Operation),
            offset,
            idealLatency,
            idealThroughput));

        // A series the raw files could not take is not run.
        cancellationToken.ThrowIfCancellationRequested();

        var scenario = series.Operation == Operations.Compute
            ? ComputeScenario.Create(seriesId, client, options.Settings, run.Simulations)
            : CallThirdPartyScenario.Create(seriesId, client, options.Settings, run.Simulations);

        run.Progress.StartSeries(series.Index, seriesId);
        using var watching = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var scraper = options.Agent?.Scrapes ?? true
            ? new ServerScraper(run.ScrapeHttp, run.Recorder, offset).RunAsync(seriesId, target.MetricsAddress, watching.Token)
            : Task.CompletedTask;
        var watcher = run.Watcher?.WatchAsync(target, new SeriesWatch(seriesId, run.Recorder, offset, run.Clock), watching.Token) ?? Task.CompletedTask;
        ScenarioResult result;
        try
        {
            result = await LoadRunner.RunAsync(
                scenario,
                new SeriesObserver(run, seriesId),
                new LoadRunnerOptions { MaxFailures = options.MaxFailures },
                cancellationToken);
        }
        finally
        {
            await watching.CancelAsync();
            await scraper;
            await watcher;
            run.Progress.EndSeries();
        }

        if (result.StoppedByFailureLimit)
        {
            run.Recorder.RecordEvent(new RunEvent(run.Clock.Elapsed.TotalSeconds, "note", seriesId, $"stopped after {result.Failures} failures (--max-failures)"));
        }

        console.MarkupLineInterpolated(
            $"  {seriesId}: {result.Requests} requests, {result.Failures} failed, {result.Elapsed.TotalSeconds:F0} s");
        cancellationToken.ThrowIfCancellationRequested();
    }
}
