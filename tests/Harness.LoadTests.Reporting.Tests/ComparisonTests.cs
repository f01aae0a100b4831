using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class ComparisonTests
{
    // Two seconds of 100 requests at one latency, with context switches growing by switchesPerRequest × 200.
    private static IReadOnlyList<SecondSample> Steady(long microseconds, int requestsPerSecond, double switchesPerRequest, long failures = 0, int threads = 20)
    {
        var total = 2.0 * requestsPerSecond * switchesPerRequest;
        return
        [
            Sample(0, 10, Histogram((microseconds, requestsPerSecond - failures)), failures, Server("x", threads, 2, 0, 1, 1000, 0)),
            Sample(1, 10, Histogram((microseconds, requestsPerSecond)), 0, Server("x", threads, 2, 0, 2, 1000 + total, 0)),
        ];
    }

    [Fact]
    public void Modes_are_compared_with_threadpool_even_when_it_ran_second()
    {
        var run = Run(
        [
            (Series("grpc", "compute", "iocp"), Steady(2000, 100, 3, threads: 16)),
            (Series("grpc", "compute", "threadpool"), Steady(8000, 50, 12, threads: 40)),
            (Series("soap", "compute", "iocp"), Steady(1000, 10, 1)),
        ]);

        var groups = ModeComparison.Build(run);

        Assert.Equal(["grpc-compute", "soap-compute"], groups.Select(g => g.Key));
        var grpc = groups[0];
        Assert.Equal("threadpool", grpc.Baseline);
        var iocp = grpc.Rows.Single(r => r.Label == "iocp").Ratios;
        Assert.Equal(0.25, iocp.Mean!.Value, 9);
        Assert.Equal(0.25, iocp.P99!.Value, 9);
        Assert.Equal(2.0, iocp.RequestsPerSecond!.Value, 9);
        Assert.Equal(0.4, iocp.PeakThreads!.Value, 9);
        Assert.Equal(0.25, iocp.ContextSwitchesPerRequest!.Value, 9);
        Assert.Equal(1.0, grpc.BaselineRow.Ratios.Mean!.Value, 9);

        // Without threadpool, the first mode is the baseline.
        Assert.Equal("iocp", groups[1].Baseline);
    }

    [Fact]
    public void Rows_follow_the_run_mode_order_and_shared_modes_are_labelled_by_series_id()
    {
        var run = Run(
        [
            (Series("grpc", "call-third-party", "custompool", id: "a-custom"), Steady(1000, 10, 1)),
            (Series("grpc", "call-third-party", "threadpool", id: "dop-default"), Steady(1000, 10, 1)),
            (Series("grpc", "call-third-party", "threadpool", id: "dop-8"), Steady(1000, 10, 1)),
        ]);

        var group = Assert.Single(ModeComparison.Build(run));

        Assert.Equal(["custompool", "dop-default", "dop-8"], group.Rows.Select(r => r.Label));
        Assert.Equal("dop-default", group.Baseline);
    }

    [Fact]
    public void Zero_baselines_give_a_ratio_of_one_or_none()
    {
        Assert.Equal(1.0, Ratio.Of(0, 0));
        Assert.Null(Ratio.Of(5, 0));
        Assert.Equal(0.0, Ratio.Of(0, 5));
        Assert.Null(Ratio.Of(null, 5));
        Assert.Equal(0.0, Ratio.PercentChange(0, 0));
        Assert.Null(Ratio.PercentChange(0, 3));
        Assert.Equal(-100.0, Ratio.PercentChange(3, 0));
        Assert.Equal(25.0, Ratio.PercentChange(4, 5)!.Value, 9);
    }

    [Fact]
    public void Compare_gives_percentage_changes_per_series()
    {
        var a = Run([(Series("grpc", "compute", "iocp"), Steady(4000, 100, 2))], runId: "A");
        var b = Run([(Series("grpc", "compute", "iocp"), Steady(5000, 80, 3, failures: 4))], runId: "B");

        var comparison = MultiRunComparison.Build([a, b]).Pairings[0];

        var series = Assert.Single(comparison.Matched);
        Assert.Equal("id", series.MatchedBy);
        MetricChange Change(string metric) => series.Changes.Single(c => c.Metric == metric);
        Assert.Equal(25, Change(SeriesPairing.MeanMs).PercentChange!.Value, 9);
        Assert.Equal(25, Change(SeriesPairing.P99Ms).PercentChange!.Value, 9);
        Assert.Equal(25, Change(SeriesPairing.MaxMs).PercentChange!.Value, 9);
        Assert.Equal(-20, Change(SeriesPairing.RequestsPerSecond).PercentChange!.Value, 9);
        Assert.Equal(50, Change(SeriesPairing.ContextSwitchesPerRequest).PercentChange!.Value, 9);

        // No errors in A, 4 of 160 in B: the change from zero is undefined, and still a regression.
        var errors = Change(SeriesPairing.ErrorRate);
        Assert.Equal(0, errors.Before);
        Assert.Equal(0.025, errors.After!.Value, 9);
        Assert.Null(errors.PercentChange);
        Assert.True(errors.IsRegression());
        Assert.True(Change(SeriesPairing.MeanMs).IsRegression(5));
        Assert.False(Change(SeriesPairing.MeanMs).IsRegression(30));
        Assert.True(Change(SeriesPairing.RequestsPerSecond).IsRegression(5));
        Assert.Empty(comparison.OnlyInA);
        Assert.Empty(comparison.OnlyInB);
    }

    [Fact]
    public void Compare_matches_renamed_series_by_stack_operation_and_mode_and_lists_the_rest()
    {
        var a = Run(
        [
            (Series("grpc", "compute", "iocp", id: "old-name"), Steady(4000, 100, 2)),
            (Series("soap", "compute", "iocp"), Steady(4000, 100, 2)),
        ], runId: "A");
        var b = Run(
        [
            (Series("grpc", "compute", "iocp", id: "new-name"), Steady(4000, 100, 2)),
            (Series("grpc", "compute", "custompool"), Steady(4000, 100, 2)),
        ], runId: "B");

        var comparison = MultiRunComparison.Build([a, b]).Pairings[0];

        var series = Assert.Single(comparison.Matched);
        Assert.Equal("stack+operation+mode", series.MatchedBy);
        Assert.All(series.Changes, c => Assert.Equal(0, c.PercentChange));
        Assert.Equal("soap-compute-iocp", Assert.Single(comparison.OnlyInA).Id);
        Assert.Equal("grpc-compute-custompool", Assert.Single(comparison.OnlyInB).Id);

        var text = ComparisonText.ToText(comparison);
        Assert.Contains("Only in A (A):", text, StringComparison.Ordinal);
        Assert.Contains("soap-compute-iocp", text, StringComparison.Ordinal);
        Assert.Contains("Only in B (B):", text, StringComparison.Ordinal);
    }

    [Fact]
    public void The_console_table_aligns_columns_and_leaves_a_single_run_unmarked()
    {
        var a = Run([(Series("grpc", "compute", "iocp"), Steady(4000, 100, 2))], runId: "A");
        var b = Run([(Series("grpc", "compute", "iocp"), Steady(8000, 100, 2))], runId: "B");

        var lines = ComparisonText.ToText(MultiRunComparison.Build([a, b]).Pairings[0]).Split(Environment.NewLine);

        var header = lines.First(l => l.StartsWith("series", StringComparison.Ordinal) && l.Contains("mean ms", StringComparison.Ordinal));
        var row = lines[Array.IndexOf(lines, header) + 2];
        Assert.StartsWith("grpc-compute-iocp", row, StringComparison.Ordinal);
        Assert.Contains("+100 %", row, StringComparison.Ordinal);
        Assert.DoesNotContain("!", row, StringComparison.Ordinal);
        Assert.Equal(header.Length, row.Length);
        Assert.Contains(lines, l => l.Contains("mean ms", StringComparison.Ordinal) && l.Contains("4.00", StringComparison.Ordinal) && l.Contains("8.00", StringComparison.Ordinal));
    }

    [Fact]
    public void Compare_says_first_when_the_runs_differ_in_profile_time_scale_parameters_or_warm_up()
    {
        var a = Run([(Series("grpc", "compute", "iocp"), Steady(4000, 100, 2))], runId: "A");
        var b = Run([(Series("grpc", "compute", "iocp") with { Parameters = new Dictionary<string, string> { ["delayMs"] = "1000" }, WarmUpSeconds = 5 }, Steady(4000, 100, 2))], runId: "B");
        b = b with { Manifest = b.Manifest with { Profile = "quick", TimeScale = 0.1 } };
        var restaged = a with { Manifest = a.Manifest with { ProfileDefinition = """{"stages":[{"users":8,"seconds":45}]}""" } };
        var relaid = a with { Manifest = a.Manifest with { ProfileDefinition = """{ "stages": [ { "users": 4, "seconds": 45 } ] }""" } };

        var comparison = MultiRunComparison.Build([a, b]).Pairings[0];

        Assert.Equal(
        [
            "profile: A ran 'ramp', B ran 'quick'.",
            "time scale: A 1, B 0.1.",
            "grpc-compute-iocp: operation parameters: A delayMs=4000, B delayMs=1000.",
            "grpc-compute-iocp: warm-up: A 0 s, B 5 s.",
        ], comparison.Differences);
        var text = ComparisonText.ToText(comparison);
        Assert.True(text.IndexOf("The runs differ", StringComparison.Ordinal) < text.IndexOf("Changes, B against A:", StringComparison.Ordinal));
        Assert.Contains("  - time scale: A 1, B 0.1.", text, StringComparison.Ordinal);
        Assert.Contains("- profile: A ran 'ramp', B ran 'quick'.", ComparisonMarkdown.Render(MultiRunComparison.Build([a, b])), StringComparison.Ordinal);
        Assert.Contains("different stages", Assert.Single(MultiRunComparison.Build([a, restaged]).Pairings[0].Differences), StringComparison.Ordinal);
        Assert.Empty(MultiRunComparison.Build([a, relaid]).Pairings[0].Differences);
        Assert.DoesNotContain("The runs differ", ComparisonText.ToText(MultiRunComparison.Build([a, relaid]).Pairings[0]), StringComparison.Ordinal);
    }
}
