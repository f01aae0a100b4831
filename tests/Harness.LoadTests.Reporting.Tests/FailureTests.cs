using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Failed requests have their own figures and never enter the latency of what succeeded: a fast failure would otherwise pass for a fast reply.</summary>
public sealed class FailureTests
{
    // threadpool: 100 successes a second at 100 ms. iocp: the same, plus 100 failures a second that fail fast (1 ms).
    // Mixed in, iocp's failures would halve its mean and make it look twice as fast.
    private static RunData FastFailures(string runId = "run", bool iocpFails = true) => Run(
    [
        (Series("grpc", "compute", "threadpool"),
        [
            Sample(0, 10, Histogram((100_000, 100))),
            Sample(1, 10, Histogram((100_000, 100))),
        ]),
        (Series("grpc", "compute", "iocp"),
        [
            Sample(0, 10, Histogram((100_000, 100)), failures: iocpFails ? 100 : 0, failureLatency: iocpFails ? Histogram((1_000, 100)) : null),
            Sample(1, 10, Histogram((100_000, 100)), failures: iocpFails ? 100 : 0, failureLatency: iocpFails ? Histogram((1_000, 100)) : null),
        ]),
    ], runId: runId);

    [Fact]
    public void The_summary_keeps_the_latency_of_successes_and_gives_failures_their_own_count_rate_and_latency()
    {
        var iocp = SeriesSummary.ForRun(FastFailures()).Single(s => s.Series.Mode == "iocp");

        Assert.Equal((400L, 200L, 200L), (iocp.Requests, iocp.Successes, iocp.Failures));
        Assert.Equal(0.5, iocp.ErrorRate, 9);
        Assert.Equal(200, iocp.Latency.Count);
        Assert.Equal(100, iocp.Latency.MeanMs, 6);
        Assert.Equal(100, iocp.Latency.P50Ms, 6);
        Assert.False(iocp.LatencyIncludesFailures);
        Assert.Equal((200L, 1.0, 1.0), (iocp.FailureLatency!.Count, iocp.FailureLatency.MeanMs, iocp.FailureLatency.P99Ms));
    }

    [Fact]
    public void Ratios_thresholds_and_compare_see_the_latency_of_successes_only()
    {
        var run = FastFailures();

        var ratios = ModeComparison.Build(run).Single().Rows.Single(r => r.Label == "iocp").Ratios;
        var threshold = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("mode=iocp:mean<60ms")]).Single();
        var compare = MultiRunComparison.Build([FastFailures("A", iocpFails: false), FastFailures("B")]).Pairings[0].Matched.Single(m => m.After.Series.Mode == "iocp");

        Assert.Equal(1.0, ratios.Mean!.Value, 9);
        Assert.Equal(1.0, ratios.P50!.Value, 9);
        Assert.False(threshold.Passed);
        Assert.Equal(100, threshold.Actual!.Value, 6);
        Assert.Equal(0, compare.Changes.Single(c => c.Metric == SeriesPairing.MeanMs).PercentChange);
        Assert.True(compare.Changes.Single(c => c.Metric == SeriesPairing.ErrorRate).IsRegression());
    }

    [Fact]
    public void The_tables_show_the_failures_latency_and_a_format_2_run_says_its_latency_includes_failures()
    {
        var run = FastFailures();
        var old = run with { Manifest = run.Manifest with { FormatVersion = 2 } };

        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));
        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var oldSummary = SeriesSummary.ForRun(old).Single(s => s.Series.Mode == "iocp");

        Assert.Contains("| failed mean ms | failed p99 ms |", markdown, StringComparison.Ordinal);
        Assert.Contains("| iocp | 400 | 200 | 100 | 100 | 100 | 100 | 100 | 100 | 100 | 200 | 50.0 % | 1.00 | 1.00 |", markdown, StringComparison.Ordinal);
        Assert.Contains("failed requests</th>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("raw format 3", markdown, StringComparison.Ordinal);
        Assert.True(oldSummary.LatencyIncludesFailures);
        Assert.Null(oldSummary.FailureLatency);
        Assert.Contains("its latency includes the failed requests", MarkdownReport.Render(RunAnalysis.Of(old)), StringComparison.Ordinal);
        Assert.Contains("every request (format 2 run)", HtmlReport.Render(RunAnalysis.Of(old)), StringComparison.Ordinal);
    }

    [Fact]
    public void The_error_rate_of_each_second_is_charted_per_series()
    {
        var html = HtmlReport.Render(RunAnalysis.Of(FastFailures()));

        // 100 of the 200 requests of each iocp second failed; none of threadpool's.
        Assert.Contains("\"errorRate\":[50,50]", html, StringComparison.Ordinal);
        Assert.Contains("\"errorRate\":[0,0]", html, StringComparison.Ordinal);
    }
}
