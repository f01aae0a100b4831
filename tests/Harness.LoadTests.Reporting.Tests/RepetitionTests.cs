using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Repeated modes: medians, their bounds, ratio intervals and "inconclusive", so a difference the run cannot tell from its noise is not called one.</summary>
public sealed class RepetitionTests
{
    [Fact]
    public void Under_five_values_the_bounds_are_the_range_and_the_median_is_the_middle()
    {
        var odd = Spread.Of([300, 100, 200])!;
        var even = Spread.Of([4, 1, 3, 2])!;

        Assert.Equal((200.0, 100.0, 300.0, 3), (odd.Median, odd.Low, odd.High, odd.Count));
        Assert.True(odd.IsRange);
        Assert.Equal(2, odd.AaSpread!.Value, 9);
        Assert.Equal((2.5, 1.0, 4.0), (even.Median, even.Low, even.High));
        Assert.Null(Spread.Of([]));
        Assert.Equal(0, Spread.Of([7])!.AaSpread);
    }

    [Theory]
    [InlineData(5, 1, 0.9375)]
    [InlineData(6, 1, 0.96875)]
    [InlineData(8, 1, 0.9921875)]
    [InlineData(9, 2, 0.9609375)]
    [InlineData(20, 6, 0.958610534667969)]
    public void From_five_values_the_bounds_are_the_order_statistics_interval_of_the_median(int n, int k, double confidence)
    {
        var (actualK, actualConfidence) = Spread.MedianInterval(n);
        var spread = Spread.Of(Enumerable.Range(1, n).Select(i => (double)i).Reverse())!;

        Assert.Equal(k, actualK);
        Assert.Equal(confidence, actualConfidence, 9);
        Assert.Equal((double)k, spread.Low);
        Assert.Equal((double)(n + 1 - k), spread.High);
        Assert.Equal(confidence, spread.Confidence!.Value, 9);
        Assert.Equal(n - 1, spread.AaSpread!.Value, 9);
    }

    // Each repetition: two seconds of a closed model's 10 users at the given latency, so 10 ÷ latency requests a
    // second (100 at 100 ms): req/s varies with the latency as in a real run, and carries a verdict of its own.
    private static IReadOnlyList<SecondSample> Steady(long microseconds)
    {
        var perSecond = (long)Math.Round(10 * 1_000_000.0 / microseconds);
        return [Sample(0, 10, Histogram((microseconds, perSecond))), Sample(1, 10, Histogram((microseconds, perSecond)))];
    }

    private static SeriesInfo Repetition(string mode, int n) => Series("grpc", "compute", mode, id: $"grpc-compute-{mode}-{n}") with { Repetition = n };

    private static RunData Repeated(long[] threadpool, long[] iocp) => Run(
    [
        .. threadpool.Select((us, i) => (Repetition("threadpool", i + 1), Steady(us))),
        .. iocp.Select((us, i) => (Repetition("iocp", i + 1), Steady(us))),
    ]);

    [Fact]
    public void Each_repetition_is_a_row_and_each_mode_compares_by_the_median_of_its_repetitions()
    {
        var group = ModeComparison.Build(Repeated([100_000, 120_000, 110_000], [50_000, 60_000, 40_000])).Single();

        Assert.Equal(["threadpool #1", "threadpool #2", "threadpool #3", "iocp #1", "iocp #2", "iocp #3"], group.Rows.Select(r => r.Label));
        Assert.Equal(["threadpool", "iocp"], group.Modes.Select(m => m.Label));
        Assert.Equal("threadpool", group.Baseline);
        var iocp = group.Modes[1];
        Assert.Equal((50.0, 40.0, 60.0), (iocp.Of(ModeFigure.Mean)!.Median, iocp.Of(ModeFigure.Mean)!.Low, iocp.Of(ModeFigure.Mean)!.High));

        // The ratio of the geometric means, 0.4496; its interval on the log scale ± t(4 df) × the two modes' pooled sd
        // 0.15741 × √(1/3 + 1/3) = 0.12852 (no rounds, so not paired), at the level Holm judged it at among the group's
        // 3 comparisons (mean, p99, req/s). req/s, whose per-second counts are rounded (83 and 91 rather than 83.3 and
        // 90.9), is a hair further from the band (p 0.00425 against 0.00434), so Holm takes it first at 1 − 0.05/3 and
        // the mean second at 1 − 0.05/2: t = 3.495, 0.2869 to 0.7046. Entirely below 0.95: better. The p99, tied with
        // the mean and listed after it, comes last at 95 %: 0.3147 to 0.6425.
        var ratio = iocp.RatioOf(ModeFigure.Mean);
        Assert.Equal(0.449644313, ratio.Median!.Value, 6);
        Assert.Equal(1 - (0.05 / 2), ratio.Level!.Value, 9);
        Assert.Equal(0.449644313 * Math.Exp(-RepetitionNoise.TwoSidedT(4, 1 - (0.05 / 2)) * 0.1574093 * Math.Sqrt(2.0 / 3)), ratio.Low!.Value, 4);
        Assert.Equal(0.449644313 * Math.Exp(RepetitionNoise.TwoSidedT(4, 1 - (0.05 / 2)) * 0.1574093 * Math.Sqrt(2.0 / 3)), ratio.High!.Value, 4);
        Assert.Equal(0.2869, ratio.Low!.Value, 3);
        Assert.Equal(0.7046, ratio.High!.Value, 3);
        Assert.Equal((1 - (0.05 / 3), RatioVerdict.Better), (iocp.RatioOf(ModeFigure.RequestsPerSecond).Level!.Value, iocp.RatioOf(ModeFigure.RequestsPerSecond).Verdict));
        Assert.Equal((0.95, 0.3147, 0.6425), (iocp.RatioOf(ModeFigure.P99).Level!.Value, Math.Round(iocp.RatioOf(ModeFigure.P99).Low!.Value, 4), Math.Round(iocp.RatioOf(ModeFigure.P99).High!.Value, 4)));
        Assert.Equal(RatioVerdict.Better, ratio.Verdict);
        Assert.Equal(RatioVerdict.Base, group.BaselineMode.RatioOf(ModeFigure.Mean).Verdict);

        // A series' own ratio is against the baseline mode's median: iocp #1 = 50 / 110.
        Assert.Equal(50.0 / 110, group.Rows[3].Ratios.Mean!.Value, 9);
        Assert.Equal(100.0 / 110, group.Rows[0].Ratios.Mean!.Value, 9);
    }

    [Fact]
    public void A_ratio_whose_interval_spans_the_band_is_inconclusive_whatever_its_median()
    {
        // iocp's median is 20 % lower, but threadpool's repetitions alone differ by 2×: the run cannot tell them apart.
        var noisy = ModeComparison.Build(Repeated([60_000, 100_000, 120_000], [70_000, 80_000, 90_000])).Single().Modes[1];
        var single = ModeComparison.Build(Run(
        [
            (Series("grpc", "compute", "threadpool"), Steady(100_000)),
            (Series("grpc", "compute", "iocp"), Steady(80_000)),
        ])).Single().Modes[1];

        Assert.InRange(noisy.RatioOf(ModeFigure.Mean).Median!.Value, 0.85, 0.9);
        Assert.Equal(RatioVerdict.Inconclusive, noisy.RatioOf(ModeFigure.Mean).Verdict);
        Assert.Equal(RatioVerdict.Inconclusive, noisy.RatioOf(ModeFigure.RequestsPerSecond).Verdict);
        // One process of each mode: nothing says how far two processes of one mode would be apart, so no colour.
        Assert.False(single.RatioOf(ModeFigure.Mean).HasSpread);
        Assert.Equal(RatioVerdict.SingleRun, single.RatioOf(ModeFigure.Mean).Verdict);
        Assert.Equal(RatioVerdict.SingleRun, single.RatioOf(ModeFigure.RequestsPerSecond).Verdict);
    }

    [Fact]
    public void Thresholds_apply_to_the_median_of_a_modes_repetitions()
    {
        // iocp's repetitions: p99 100, 200 and 900 ms. The median, 200 ms, passes < 300 ms though one repetition does not.
        var run = Repeated([1_000_000, 1_000_000], [100_000, 200_000, 900_000]);

        var results = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("mode=iocp:p99<300ms"), Threshold.Parse("grpc-compute-iocp:p99<150ms"), Threshold.Parse("p99<2s")]);

        Assert.Equal(4, results.Count);
        var median = results[0];
        Assert.Equal("grpc-compute-iocp", median.SeriesId);
        Assert.True(median.Passed);
        Assert.Equal(200, median.Actual!.Value, 6);
        Assert.Equal("p99 = 200 ms (median of 3 repetitions: 100 ms, 200 ms, 900 ms), limit < 300 ms", median.Message);
        Assert.False(results[1].Passed);
        Assert.Equal(["grpc-compute-threadpool", "grpc-compute-iocp"], results.Skip(2).Select(r => r.SeriesId));
        Assert.True(Threshold.Parse("grpc-compute-iocp-2:p99<1s").AppliesTo(Repetition("iocp", 2)));
    }

    [Fact]
    public void The_reports_label_repetitions_and_show_medians_bounds_aa_spread_and_noise()
    {
        var run = Repeated([60_000, 100_000, 120_000], [70_000, 80_000, 90_000]);

        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));
        var html = System.Net.WebUtility.HtmlDecode(HtmlReport.Render(RunAnalysis.Of(run)));

        Assert.Contains("| threadpool #2 | 200 |", markdown, StringComparison.Ordinal);
        Assert.Matches(@"\| iocp \| 0\.89× \(0\.\d\d–\d\.\d\d\) inconclusive: between −\d+ % and \+\d+ % \|", markdown);
        Assert.Contains("Noise floor of this run, from its repetitions: one process of a mode was typically ±30.9 % on the mean", markdown, StringComparison.Ordinal);
        Assert.Contains("none of the 3 comparisons judged as one family (Holm, family-wise 5 %) is better or worse beyond ±5 %", html, StringComparison.Ordinal);
        Assert.Contains("this group could have found (4 times in 5) a change of", markdown, StringComparison.Ordinal);
        Assert.Contains("| threadpool | 3 | min–max | 100 (60.0–120) | 100.0 % |", markdown, StringComparison.Ordinal);
        Assert.Contains("<h3>Modes over their repetitions</h3>", html, StringComparison.Ordinal);
        Assert.Contains("iocp (3 runs)", html, StringComparison.Ordinal);
        Assert.Contains("class=\"noise\"", html, StringComparison.Ordinal);
        Assert.Contains("inconclusive: between", html, StringComparison.Ordinal);
        Assert.DoesNotContain("within noise", html, StringComparison.Ordinal);
        Assert.Contains("threadpool #3", html, StringComparison.Ordinal);
    }
}
