using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>gRPC against SOAP: the ratios per operation × mode, their pooled interval and colour, and the stack-ratio threshold.</summary>
public sealed class StackComparisonTests
{
    // Each series: two seconds of 100 requests at the given latency, 10 users; the service's CPU counter grows by
    // cpuSeconds over them, and its working set is workingSetMb.
    private static IReadOnlyList<SecondSample> Steady(string mode, long microseconds, double cpuSeconds, double workingSetMb) =>
    [
        Sample(0, 10, Histogram((microseconds, 100)), server: Server(mode, 30, 1, 0, 0, 0, 0, workingSetMb)),
        Sample(1, 10, Histogram((microseconds, 100)), server: Server(mode, 30, 1, 0, cpuSeconds, 0, 0, workingSetMb)),
    ];

    private static SeriesInfo Repetition(string stack, string mode, int n) =>
        Series(stack, "compute", mode, id: $"{stack}-compute-{mode}-{n}") with { Repetition = n };

    // iocp: gRPC at half of SOAP's latency in both repetitions (each stack 2 % apart between its two processes), half its
    // CPU and memory. threadpool: the stacks overlap (gRPC 100 and 120 ms, SOAP 110 and 100 ms).
    private static RunData Repeated() => Run(
    [
        (Repetition("grpc", "iocp", 1), Steady("iocp", 50_000, 1.0, 80)),
        (Repetition("soap", "iocp", 1), Steady("iocp", 100_000, 2.0, 160)),
        (Repetition("soap", "iocp", 2), Steady("iocp", 102_000, 2.0, 160)),
        (Repetition("grpc", "iocp", 2), Steady("iocp", 51_000, 1.0, 80)),
        (Repetition("grpc", "threadpool", 1), Steady("threadpool", 100_000, 1.0, 80)),
        (Repetition("soap", "threadpool", 1), Steady("threadpool", 110_000, 1.0, 80)),
        (Repetition("soap", "threadpool", 2), Steady("threadpool", 100_000, 1.0, 80)),
        (Repetition("grpc", "threadpool", 2), Steady("threadpool", 120_000, 1.0, 80)),
    ]);

    private static RunData Single(string runId = "20261122-011900") => Run(
    [
        (Series("grpc", "compute", "iocp"), Steady("iocp", 50_000, 1.0, 80)),
        (Series("soap", "compute", "iocp"), Steady("iocp", 100_000, 2.0, 160)),
    ], runId: runId);

    [Fact]
    public void Repeated_stacks_are_compared_on_the_pooled_log_t_interval_and_coloured_only_beyond_noise()
    {
        var analysis = RunAnalysis.Of(Repeated());

        Assert.Equal(["compute · iocp", "compute · threadpool"], analysis.Stacks.Select(p => p.Title));
        var iocp = analysis.Stacks[0];
        var mean = iocp.Ratios[StackFigure.Mean];
        // ln of each stack's two values lies ln(1.02)/2 from its mean: pooled s = ln(1.02)/√2 = 0.014003 on 2 degrees of
        // freedom (the series have no rounds, so they are not paired), se = s × √(1/2 + 1/2). The ratio of the geometric
        // means is √(50 × 51) ÷ √(100 × 102) = 0.5 exactly. The family: mean and p99 of iocp against threadpool in each
        // stack, and of gRPC ÷ SOAP in each mode (req/s, 100 a second everywhere, has no interval): 8 members. Holm takes
        // this mean first (with its p99, the smallest p), at 1 − 0.05/8: t(2 df) = 12.590, 0.5 × e^(±12.590 × 0.014003)
        // = 0.419 to 0.596, wholly below 0.95: better.
        var level = mean.Estimate!.Confidence;
        var half = RepetitionNoise.TwoSidedT(2, level) * (Math.Log(1.02) / Math.Sqrt(2)) * Math.Sqrt(1.0 / 2 + 1.0 / 2);
        Assert.Equal(1 - (0.05 / 8), level, 9);
        Assert.Equal(0.5, mean.Ratio!.Value, 9);
        Assert.Equal(0.5 * Math.Exp(-half), mean.Estimate.Low, 6);
        Assert.Equal(0.5 * Math.Exp(half), mean.Estimate.High, 6);
        Assert.Equal((0.419, 0.596), (Math.Round(mean.Estimate.Low, 3), Math.Round(mean.Estimate.High, 3)));
        Assert.Equal((2, RatioMethod.PooledTwoArms), (mean.Test!.DegreesOfFreedom, mean.Test.Method));
        Assert.Equal(RatioVerdict.Better, mean.Verdict);
        Assert.Equal((1.0, RatioVerdict.NoInterval), (iocp.Ratios[StackFigure.RequestsPerSecond].Ratio!.Value, iocp.Ratios[StackFigure.RequestsPerSecond].Verdict));
        Assert.Equal(0.5, iocp.Ratios[StackFigure.CpuPerRequest].Ratio!.Value, 6);
        Assert.Equal(0.5, iocp.Ratios[StackFigure.MemoryPerCall].Ratio!.Value, 6);
        Assert.Equal(5.0, iocp.Grpc[0].CpuMsPerRequest!.Value, 6);
        Assert.Equal(80 * 1024 / 10.0, iocp.Grpc[0].MemoryKbPerCallInFlight!.Value, 6);
        Assert.Equal(RatioVerdict.Inconclusive, analysis.Stacks[1].Ratios[StackFigure.Mean].Verdict);
        Assert.True(analysis.Stacks[1].Ratios[StackFigure.Mean].Estimate!.Low < 1);
    }

    [Fact]
    public void The_formats_write_the_ratios_with_their_interval_and_verdict()
    {
        var analysis = RunAnalysis.Of(Repeated());

        var markdown = MarkdownReport.Render(analysis);
        var html = System.Net.WebUtility.HtmlDecode(HtmlReport.Render(analysis));

        Assert.Contains("## gRPC ÷ SOAP", markdown, StringComparison.Ordinal);
        // iocp's stacks 2 % apart between processes: 0.42–0.60 at its Holm level, better. threadpool's overlap (10 % and
        // 20 % apart): an interval that reaches both sides of ±5 %, inconclusive with its bounds.
        Assert.Contains("| compute · iocp | 2 + 2 | 0.50× (0.42–0.60) better |", markdown, StringComparison.Ordinal);
        Assert.Matches(@"\| compute · threadpool \| +2 \+ 2 \| 1\.0\d× \([\d.]+–[\d.]+\) inconclusive: between −\d+ % and \+[\d,]+ % \|", markdown);
        Assert.DoesNotContain("within noise", markdown, StringComparison.Ordinal);
        Assert.Contains("<a href=\"#stacks\">gRPC ÷ SOAP</a>", html, StringComparison.Ordinal);
        Assert.Matches("<td class=\"better\">(<span title=\"[^\"]*\">)?0\\.50× \\(0\\.42–0\\.60\\)", html);
        Assert.Contains("<td class=\"noise\"><span title=\"", html, StringComparison.Ordinal);
        Assert.Matches("<span class=\"noise-tag\">inconclusive: between −\\d+ % and \\+[\\d,]+ %</span>", html);
        Assert.Contains("compute · iocp", StackText.ToText(analysis.Stacks), StringComparison.Ordinal);
    }

    [Fact]
    public void Two_single_runs_give_a_ratio_without_colour_that_says_single_run()
    {
        var analysis = RunAnalysis.Of(Single());

        var pair = Assert.Single(analysis.Stacks);
        var markdown = MarkdownReport.Render(analysis);
        var html = System.Net.WebUtility.HtmlDecode(HtmlReport.Render(analysis));

        Assert.Equal(RatioVerdict.SingleRun, pair.Ratios[StackFigure.Mean].Verdict);
        Assert.Null(pair.Ratios[StackFigure.Mean].Estimate);
        Assert.Equal(0.5, pair.Ratios[StackFigure.Mean].Ratio!.Value, 2);
        Assert.Contains("| 0.50× single run |", markdown, StringComparison.Ordinal);
        Assert.Contains("<td>0.50× <span class=\"noise-tag\">single run</span></td>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<td class=\"better\">0.50×", html, StringComparison.Ordinal);
    }

    [Fact]
    public void A_run_of_one_stack_has_no_stack_comparison()
    {
        var analysis = RunAnalysis.Of(Run([(Series("grpc", "compute", "iocp"), Steady("iocp", 50_000, 1, 80))]));

        Assert.Empty(analysis.Stacks);
        Assert.DoesNotContain("gRPC ÷ SOAP", MarkdownReport.Render(analysis), StringComparison.Ordinal);
    }

    [Fact]
    public void The_threshold_grammar_takes_a_stack_against_a_stack()
    {
        var ratio = Threshold.Parse("stack=grpc,mode=iocp/stack=soap:p99<=1.2x");

        Assert.True(ratio.IsStackRatio);
        Assert.Equal(("grpc", "soap"), (ratio.Stack, ratio.AgainstStack));
        Assert.Equal("iocp", ratio.Filters["mode"]);
        Assert.Equal((ThresholdMetric.Percentile, 99.0, 1.2), (ratio.Metric, ratio.Percentile!.Value, ratio.Limit));
        Assert.Equal("1.20×", ratio.FormatLimit());
        Assert.Equal(ThresholdMetric.CpuPerRequest, Threshold.Parse("STACK=gRPC/stack=SOAP:cpu<1x").Metric);
        Assert.Equal(2.5, Threshold.Parse("cpu<2.5ms").Limit);
        Assert.Equal(ThresholdMetric.MemoryPerCall, Threshold.Parse("memory<=64kb").Metric);
    }

    [Theory]
    [InlineData("stack=http/stack=soap:p99<1.2x", "unknown stack 'http' in a ratio; the stacks are soap, grpc")]
    [InlineData("stack=grpc/stack=wcf:p99<1.2x", "unknown stack 'wcf' in a ratio; the stacks are soap, grpc")]
    [InlineData("stack=grpc/mode=iocp:p99<1.2x", "'mode=iocp' after '/' is not stack=NAME: a ratio compares the stacks (soap, grpc)")]
    [InlineData("stack=grpc/stack=grpc:p99<1.2x", "both sides of '/' name the stack 'grpc'")]
    [InlineData("mode=iocp/stack=soap:p99<1.2x", "a ratio's scope names the stack divided before '/'")]
    [InlineData("stack=grpc/stack=soap:p99<1.2", "a stack ratio's value is a ratio in x (e.g. p99<1.2x), not 'no unit'")]
    [InlineData("stack=grpc/stack=soap:knee<1.2x", "a stack ratio takes mean, p<N>, max")]
    [InlineData("p99<1.2x", "a ratio (x) compares the stacks: give the scope stack=grpc/stack=soap")]
    public void Bad_stack_ratios_are_refused_naming_the_valid_values(string text, string reason)
    {
        var error = Assert.Throws<FormatException>(() => Threshold.Parse(text));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.Contains("Stack ratio: stack=grpc/stack=soap", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_stack_ratio_is_judged_per_operation_and_mode_and_a_breach_fails_the_run()
    {
        var run = Repeated();

        var scoped = RunAnalysis.Of(run, [Threshold.Parse("stack=grpc,mode=iocp/stack=soap:mean<0.6x")]);
        var all = RunAnalysis.Of(run, [Threshold.Parse("stack=grpc/stack=soap:mean<0.6x")]);
        var none = RunAnalysis.Of(run, [Threshold.Parse("stack=grpc,mode=custompool/stack=soap:mean<2x")]);

        var passed = Assert.Single(scoped.Thresholds);
        Assert.Equal((Verdict.Passed, "grpc-compute-iocp ÷ soap-compute-iocp"), (passed.Verdict, passed.SeriesId));
        Assert.Matches(@"^mean grpc ÷ soap = 0\.50× \(0\.\d\d–0\.\d\d\) at 95 %, limit < 0\.60×$", passed.Message);
        Assert.False(scoped.AnyFailed);
        Assert.Equal([Verdict.Passed, Verdict.Failed], all.Thresholds.Select(t => t.Verdict));
        Assert.True(all.AnyFailed);
        Assert.Equal("no operation × mode within the scope ran on both grpc and soap", Assert.Single(none.Thresholds).Message);
        Assert.True(none.AnyFailed);
    }

    [Fact]
    public void Compare_shows_each_runs_stack_ratios()
    {
        var comparison = MultiRunComparison.Build([Single("20261122-011900"), Single("20261122-020000")]);

        var markdown = ComparisonMarkdown.Render(comparison);
        var console = StackText.ToText(comparison);

        Assert.Contains("## gRPC ÷ SOAP in run A (20261122-011900)", markdown, StringComparison.Ordinal);
        Assert.Contains("## gRPC ÷ SOAP in run B (20261122-020000)", markdown, StringComparison.Ordinal);
        Assert.Contains("gRPC ÷ SOAP in run B (20261122-020000):", console, StringComparison.Ordinal);
        Assert.Contains("0.50× single run", console, StringComparison.Ordinal);
        Assert.Contains("id=\"stacks-B\"", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }
}
