using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>The runner's own CPU, memory and threads, sampled into each second, summarised and shown in the report.</summary>
public sealed class RunnerLoadTests
{
    private const double Mb = 1024 * 1024;

    [Fact]
    public void Runner_peaks_and_mean_cpu_come_from_its_samples_after_the_warm_up()
    {
        // Runner CPU grows 0.5 s per second (50 % of one core), the service's 0.2 s; 2 cores, so never saturated.
        var run = OneSeries(20, s => (0.5 * s, 0.2 * s, 300 + (10 * s), 40 + s), warmUpSeconds: 5);

        var runner = SeriesSummary.ForRun(run).Single().Runner;

        Assert.NotNull(runner);
        Assert.Equal(300 + (10 * 19), runner.PeakWorkingSetMb!.Value, 6);
        Assert.Equal(40 + 19, runner.PeakThreads!.Value, 6);
        Assert.Equal(50, runner.MeanCpuPercent!.Value, 6);
        Assert.Equal(15, runner.Seconds);
        Assert.Equal(0, runner.SaturatedSeconds);
        Assert.False(runner.Saturated);
    }

    [Fact]
    public void A_runner_that_takes_most_of_a_busy_machine_is_reported_as_the_limit()
    {
        // 2 cores: runner 1.5 cores, service 0.4 → 190 % ≥ 90 % of 200 %, and the runner uses more.
        var run = OneSeries(20, s => (1.5 * s, 0.4 * s, 900, 60));

        var runner = SeriesSummary.ForRun(run).Single().Runner!;
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));
        var html = HtmlReport.Render(RunAnalysis.Of(run));

        Assert.Equal(19, runner.SaturatedSeconds);
        Assert.True(runner.Saturated);
        Assert.Contains("## Load runner", markdown, StringComparison.Ordinal);
        Assert.Contains("The load runner's CPU was the limit in 19 of 20 measured seconds of grpc-call-third-party-threadpool", markdown, StringComparison.Ordinal);
        Assert.Contains("The load runner&#39;s CPU was the limit", html, StringComparison.Ordinal);
        Assert.Contains("| grpc-call-third-party-threadpool | 900 |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_busy_machine_where_the_service_uses_more_than_the_runner_is_not_the_runners_fault()
    {
        var run = OneSeries(20, s => (0.5 * s, 1.5 * s, 900, 60));

        var runner = SeriesSummary.ForRun(run).Single().Runner!;

        Assert.Equal(0, runner.SaturatedSeconds);
        Assert.DoesNotContain("CPU was the limit", MarkdownReport.Render(RunAnalysis.Of(run)), StringComparison.Ordinal);
    }

    [Fact]
    public void When_the_run_does_not_name_its_cores_the_runner_is_never_called_the_limit()
    {
        // The same load that saturates 2 cores above; with cores unknown, 0 would make every second "busy".
        var run = OneSeries(20, s => (1.5 * s, 0.4 * s, 900, 60));
        var samples = run.Timelines.Values.Single();

        var runner = RunnerLoad.From(samples, cores: 0)!;

        Assert.Equal(0, runner.SaturatedSeconds);
        Assert.False(runner.Saturated);
        Assert.Equal(150, runner.MeanCpuPercent!.Value, 6);
    }

    [Fact]
    public void A_run_without_runner_samples_has_no_runner_section_and_seconds_with_only_runner_values_have_no_target_counters()
    {
        var info = Runs.Series("grpc", "compute", "threadpool");
        var withoutRunner = Runs.Run([(info, [.. Enumerable.Range(0, 5).Select(s => Runs.Sample(s, 4, Runs.Histogram((1_000, 1))))])]);
        var runnerOnly = new Dictionary<string, double> { ["harness_runner_working_set_bytes"] = 100 * Mb };

        Assert.Null(SeriesSummary.ForRun(withoutRunner).Single().Runner);
        Assert.DoesNotContain("Load runner", MarkdownReport.Render(RunAnalysis.Of(withoutRunner)), StringComparison.Ordinal);
        Assert.False(ServerMetrics.HasTarget(runnerOnly));
        Assert.True(ServerMetrics.HasTarget(new Dictionary<string, double>(runnerOnly) { ["process_threads"] = 20 }));
    }

    private static RunData OneSeries(int seconds, Func<int, (double RunnerCpu, double ServiceCpu, double RunnerMb, double RunnerThreads)> at, int warmUpSeconds = 0)
    {
        var info = Runs.Series("grpc", "call-third-party", "threadpool") with { WarmUpSeconds = warmUpSeconds };
        var samples = new List<SecondSample>();
        for (var s = 0; s < seconds; s++)
        {
            var (runnerCpu, serviceCpu, runnerMb, runnerThreads) = at(s);
            var server = Runs.Server("threadpool", 20, 1, 0, serviceCpu, 1000, 10);
            server["harness_runner_cpu_seconds_total"] = runnerCpu;
            server["harness_runner_working_set_bytes"] = runnerMb * Mb;
            server["harness_runner_threads"] = runnerThreads;
            server["harness_runner_gc_heap_bytes"] = runnerMb / 2 * Mb;
            samples.Add(Runs.Sample(s, 100, Runs.Histogram((60_000_000, 10)), server: server));
        }

        return Runs.Run([(info, samples)]);
    }
}
