using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.SoakRuns;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class SoakTests
{
    [Fact]
    public void Windows_and_slopes_are_the_hand_computed_ones()
    {
        var (info, samples) = Series("iocp", leak: true, drift: true);
        Assert.Equal(500, SoakTrend.From(info, samples).GrowthWindowSeconds);

        var soak = SoakTrend.From(info, samples);

        // Span: seconds 100–1099 (1,000 s); each window 10 % of it.
        Assert.Equal((100, 1100), (soak.SpanFrom, soak.SpanTo));
        Assert.Equal((100, 200), (soak.First!.From, soak.First.To));
        Assert.Equal((1000, 1100), (soak.Last!.From, soak.Last.To));
        Assert.Equal(100, soak.First.P99Ms);
        Assert.Equal(130, soak.Last.P99Ms);
        Assert.Equal(30, soak.P99DriftPercent!.Value, 9);

        // p99 of ten 100 s windows: 100 ms for k = 0–6, 130 ms for k = 7–9, at x = 149.5 + 100k.
        // Slope per window = Σ(k − 4.5)·y ÷ Σ(k − 4.5)² = 315 ÷ 82.5; per second ÷ 100.
        Assert.Equal(10, soak.P99Windows.Count);
        Assert.Equal(149.5, soak.P99Windows[0].X);
        Assert.Equal(315 / 82.5 / 100, soak.P99Trend!.Slope, 9);

        // Working set 200 + 0.05·(s − 100) MB: slope 0.05 MB/s = 180 MB/h over the first window's mean, 200 + 0.05·49.5.
        Assert.Equal(0.05, soak.MemoryTrend!.Slope, 9);
        Assert.Equal(200, soak.MemoryTrend.At(100), 6);
        Assert.Equal(202.475, soak.First.WorkingSetMb!.Value, 6);
        Assert.Equal(180 / 202.475 * 100, soak.MemoryGrowthPercentPerHour!.Value, 6);

        Assert.Equal(0, soak.ThreadsGrowthPerHour!.Value, 9);
        Assert.Equal(30, soak.First.Threads);
        Assert.Equal(0, soak.RpsDriftPercent);
        Assert.Equal(50, soak.First.SuccessesPerSecond);
        Assert.Equal(0, soak.ErrorRate);
    }

    [Fact]
    public void A_soak_with_a_leak_and_a_drift_fails_exactly_on_memory_and_p99()
    {
        var run = Run(Series("iocp", leak: true, drift: true, seconds: LongSeconds));

        var results = ThresholdEvaluator.Evaluate(run, []);

        Assert.Equal(SoakDefaults.Expressions.Count, results.Count);
        Assert.All(results, r => Assert.True(r.Threshold.IsDefault));
        Assert.DoesNotContain(results, r => r.Verdict == Verdict.NotJudged);
        Assert.Equal(["soak.memory.growth", "soak.p99.drift"], results.Where(r => !r.Passed).Select(r => r.Threshold.SoakCriterion!).Order());
        var p99 = results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakP99Drift);
        Assert.Equal("p99 rose 30.0 % from the first 10 % (100 ms) to the last 10 % (130 ms) (limit < 10 %)", p99.Message);
        Assert.Contains("<code>soak.memory.growth&lt;2%/h</code> (default)", HtmlReport.Render(RunAnalysis.Of(run, [])), StringComparison.Ordinal);
        Assert.Contains("soak.memory.growth<2%/h (default)", ThresholdText.ToText(results), StringComparison.Ordinal);
    }

    [Fact]
    public void A_steady_soak_passes_every_default()
    {
        var run = Run(Series("iocp", leak: false, drift: false, seconds: LongSeconds));

        var results = ThresholdEvaluator.Evaluate(run, []);

        Assert.Equal(SoakDefaults.Expressions.Count, results.Count);
        Assert.All(results, r => Assert.True(r.Passed, r.Message));
        Assert.EndsWith("5 threshold checks: 5 passed, 0 failed, 0 not judged." + Environment.NewLine, ThresholdText.ToText(results), StringComparison.Ordinal);
        var memory = results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakMemoryGrowth);
        Assert.InRange(memory.Actual!.Value, -0.5, 0.5);
    }

    [Fact]
    public void Memory_that_settles_early_is_no_leak_while_a_steady_leak_is_one()
    {
        // Arrange: 40 minutes after the warm-up. 40 MB gained, nearly all of it in the first half (e^-1200/80); a fit
        // over the whole span would read that as a leak.
        var settling = Run(Series("threadpool", leak: false, drift: false, settle: true, seconds: LongSeconds));
        var leaking = Run(Series("iocp", leak: true, drift: false, seconds: LongSeconds));

        // Act
        var settled = ThresholdEvaluator.Evaluate(settling, []).Single(r => r.Threshold.Metric == ThresholdMetric.SoakMemoryGrowth);
        var leaked = ThresholdEvaluator.Evaluate(leaking, []).Single(r => r.Threshold.Metric == ThresholdMetric.SoakMemoryGrowth);
        var series = settling.Manifest.Series[0];
        var trend = SoakTrend.From(series, settling.Timelines[series.Id]);

        // Assert: fitted from the middle of the span (second 1,300) on.
        Assert.Equal(1300, trend.GrowthFrom);
        Assert.True(settled.Passed, settled.Message);
        Assert.InRange(settled.Actual!.Value, 0, 2);
        Assert.False(leaked.Passed, leaked.Message);
        Assert.Contains("fitted over the second half", leaked.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Errors_over_the_limit_fail_the_soak_and_are_counted_after_the_warm_up_only()
    {
        // One failure every 10 s on 50 successes: 100 of 50,100 requests after the warm-up.
        var run = Run(Series("iocp", leak: false, drift: false, failEvery: 10));

        var errors = ThresholdEvaluator.Evaluate(run, []).Single(r => r.Threshold.Metric == ThresholdMetric.SoakErrorRate);

        Assert.False(errors.Passed);
        Assert.Equal(100.0 / 50_100 * 100, errors.Actual!.Value, 9);
    }

    [Fact]
    public void A_soak_assertion_on_any_run_brings_the_other_defaults_and_replaces_its_own()
    {
        var run = Runs.Run([Series("iocp", leak: true, drift: true, seconds: LongSeconds)]);

        var results = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("soak.p99.drift<50%")]);

        Assert.Equal(SoakDefaults.Expressions.Count, results.Count);
        var p99 = results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakP99Drift);
        Assert.True(p99.Passed);
        Assert.False(p99.Threshold.IsDefault);
        Assert.False(results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakMemoryGrowth).Passed);
    }

    [Fact]
    public void A_run_that_is_not_a_soak_gets_no_soak_verdict()
    {
        var run = Runs.Run([Series("iocp", leak: true, drift: true)]);

        Assert.Empty(ThresholdEvaluator.Evaluate(run, []));
        Assert.DoesNotContain("<h3>Soak</h3>", HtmlReport.Render(RunAnalysis.Of(run)), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("soak.p99.drift<10%", ThresholdMetric.SoakP99Drift, ThresholdOperator.LessThan, 10)]
    [InlineData("soak.p99.drift<10", ThresholdMetric.SoakP99Drift, ThresholdOperator.LessThan, 10)]
    [InlineData("soak.rps.drift>-5%", ThresholdMetric.SoakRpsDrift, ThresholdOperator.GreaterThan, -5)]
    [InlineData("soak.memory.growth<2%/h", ThresholdMetric.SoakMemoryGrowth, ThresholdOperator.LessThan, 2)]
    [InlineData("soak.threads.growth<20/h", ThresholdMetric.SoakThreadsGrowth, ThresholdOperator.LessThan, 20)]
    [InlineData("soak.threads.growth<=5%/h", ThresholdMetric.SoakThreadsGrowthPercent, ThresholdOperator.LessThanOrEqual, 5)]
    [InlineData("mode=iocp:soak.errors<0.1%", ThresholdMetric.SoakErrorRate, ThresholdOperator.LessThan, 0.1)]
    public void Soak_thresholds_parse(string text, ThresholdMetric metric, ThresholdOperator op, double limit)
    {
        var threshold = Threshold.Parse(text);

        Assert.Equal((metric, op), (threshold.Metric, threshold.Operator));
        Assert.Equal(limit, threshold.Limit, 9);
        Assert.True(threshold.IsSoak);
    }

    [Theory]
    [InlineData("soak.memory.growth<2%", "%/h")]
    [InlineData("soak.threads.growth<2", "/h (threads per hour) or %/h")]
    [InlineData("soak.errors<1", "a rate in %")]
    [InlineData("soak.p99.drift<10ms", "a change in %")]
    [InlineData("p99<-5ms", "cannot be negative")]
    [InlineData("soak.leak<1%", "unknown metric")]
    public void Bad_soak_thresholds_say_what_is_wrong(string text, string reason)
    {
        var error = Assert.Throws<FormatException>(() => Threshold.Parse(text));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_report_of_a_soak_shows_its_windows_trends_and_verdicts_in_words()
    {
        var run = Run(Series("threadpool", leak: false, drift: false), Series("iocp", leak: true, drift: true));

        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));

        Assert.Contains("<h3>Soak</h3>", html, StringComparison.Ordinal);
        Assert.Contains("p99 rose 30.0 % from the first 10 % (100 ms) to the last 10 % (130 ms) (limit &lt; 10 %) <span class=\"note\">(soak default)</span>: <b class=\"fail\">FAIL</b>", html, StringComparison.Ordinal);
        Assert.Contains("\"soak\":[", html, StringComparison.Ordinal);
        Assert.Contains("- iocp: p99 rose 30.0 % from the first 10 % (100 ms) to the last 10 % (130 ms) (limit < 10 %) (soak default): **FAIL**", markdown, StringComparison.Ordinal);
        Assert.Contains("- threadpool: p99 rose 0 % from the first 10 %", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_two_minute_soak_settling_is_not_judged_on_growth_or_drift_and_fails_nothing()
    {
        // Arrange: the smoke run of the soak overlay: 2 minutes after the warm-up while the working set settles.
        var run = Run(Series("threadpool", leak: false, drift: false, settle: true, seconds: WarmUp + 120));
        var series = run.Manifest.Series[0];
        var trend = SoakTrend.From(series, run.Timelines[series.Id]);

        // Act
        var results = ThresholdEvaluator.Evaluate(run, []);

        // Assert: the fit alone would read hundreds of % an hour; nothing but the error rate is judged.
        Assert.True(trend.MemoryGrowthPercentPerHour > 100, $"{trend.MemoryGrowthPercentPerHour}");
        Assert.False(ThresholdEvaluator.AnyFailed(results));
        Assert.Equal(SoakDefaults.Expressions.Count, results.Count);
        Assert.Equal(ThresholdMetric.SoakErrorRate, Assert.Single(results, r => r.Passed).Threshold.Metric);
        Assert.All(results.Where(r => r.Threshold.Metric != ThresholdMetric.SoakErrorRate), r =>
        {
            Assert.Equal(Verdict.NotJudged, r.Verdict);
            Assert.Null(r.Actual);
        });
        Assert.Equal(
            "memory growth not judged: the growth window (the second half of the 2 min measured) was 1 min; a growth per hour needs at least 10 min of it "
            + "(a soak of 20 min after the warm-up), or it reads a working set still settling as a leak",
            results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakMemoryGrowth).Message);
        Assert.StartsWith("thread growth not judged: the growth window", results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakThreadsGrowthPercent).Message, StringComparison.Ordinal);
        Assert.Equal(
            "p99 drift not judged: each window (the first and last 10 % of the 2 min measured) was 12 s; a drift needs at least 30 s in each (a soak of 5 min after the warm-up)",
            results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakP99Drift).Message);
    }

    [Fact]
    public void Every_format_shows_a_check_not_judged_as_such_and_counts_it()
    {
        var run = Run(Series("threadpool", leak: false, drift: false, settle: true, seconds: WarmUp + 120));
        var results = ThresholdEvaluator.Evaluate(run, []);

        var text = ThresholdText.ToText(results);
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run, []));
        var html = HtmlReport.Render(RunAnalysis.Of(run, []));

        const string tally = "5 threshold checks: 1 passed, 0 failed, 4 not judged.";
        Assert.Contains("not judged  soak.memory.growth<2%/h (default)", text, StringComparison.Ordinal);
        Assert.EndsWith(tally + Environment.NewLine, text, StringComparison.Ordinal);
        Assert.Contains("| not judged | soak.memory.growth<2%/h (default) |", markdown, StringComparison.Ordinal);
        Assert.Contains(tally, markdown, StringComparison.Ordinal);
        Assert.Contains("(soak default): **not judged**", markdown, StringComparison.Ordinal);
        Assert.Contains("<td class=\"text unjudged\">not judged</td><td class=\"text\"><code>soak.memory.growth&lt;2%/h</code>", html, StringComparison.Ordinal);
        Assert.Contains("not judged: the growth window (the second half of the 2 min measured) was 1 min", html, StringComparison.Ordinal);
        Assert.Contains("<b class=\"unjudged\">not judged</b>", html, StringComparison.Ordinal);
        Assert.Contains("Thresholds (none failed, 4 not judged)", html, StringComparison.Ordinal);
        Assert.Contains(tally + "</a> A check not judged does not fail the run", html, StringComparison.Ordinal);
        Assert.DoesNotContain("FAIL", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("soak.memory.growth<2%/h", 1198, Verdict.NotJudged)]
    [InlineData("soak.memory.growth<2%/h", 1200, Verdict.Failed)]
    [InlineData("soak.threads.growth<20/h", 1198, Verdict.NotJudged)]
    [InlineData("soak.threads.growth<20/h", 1200, Verdict.Passed)]
    [InlineData("soak.p99.drift<10%", 294, Verdict.NotJudged)]
    [InlineData("soak.p99.drift<10%", 295, Verdict.Passed)]
    [InlineData("soak.rps.drift>-5%", 294, Verdict.NotJudged)]
    [InlineData("soak.rps.drift>-5%", 295, Verdict.Passed)]
    [InlineData("soak.errors<0.1%", 2, Verdict.Passed)]
    public void Each_criterion_is_judged_from_its_minimum_span(string expression, int span, Verdict verdict)
    {
        // A growth needs a growth window (the span's second half) of 10 min: 1,198 s leave 599 s, 1,200 s 600 s.
        // A drift needs windows of 30 s: round(294 × 10 %) = 29 s, round(295 × 10 %) = 30 s. The series leaks 180 MB/h.
        var threshold = Threshold.Parse(expression);
        var run = Run(Series("iocp", leak: true, drift: false, seconds: WarmUp + span));

        var result = ThresholdEvaluator.Evaluate(run, [threshold]).Single(r => r.Threshold == threshold);

        Assert.Equal(verdict, result.Verdict);
    }

    [Fact]
    public void A_soak_that_measured_nothing_still_fails_on_its_errors()
    {
        var run = Run(Series("iocp", leak: false, drift: false, seconds: WarmUp));

        var results = ThresholdEvaluator.Evaluate(run, []);

        var errors = results.Single(r => r.Threshold.Metric == ThresholdMetric.SoakErrorRate);
        Assert.Equal(Verdict.Failed, errors.Verdict);
        Assert.Equal(4, results.Count(r => r.Verdict == Verdict.NotJudged));
        Assert.True(ThresholdEvaluator.AnyFailed(results));
    }

    [Fact]
    public void A_repeated_mode_is_judged_on_its_repetitions_long_enough_and_not_at_all_when_none_is()
    {
        static (SeriesInfo, IReadOnlyList<SecondSample>) Repetition(int n, int seconds)
        {
            var (info, samples) = Series("iocp", leak: true, drift: false, seconds: seconds);
            return (info with { Id = $"{info.Id}-{n}", Repetition = n }, samples);
        }

        var memory = Threshold.Parse("soak.memory.growth<2%/h");
        var mixed = ThresholdEvaluator.Evaluate(Run(Repetition(1, LongSeconds), Repetition(2, WarmUp + 120)), [memory]).Single(r => r.Threshold == memory);
        var short2 = ThresholdEvaluator.Evaluate(Run(Repetition(1, WarmUp + 120), Repetition(2, WarmUp + 60)), [memory]).Single(r => r.Threshold == memory);

        Assert.Equal(Verdict.Failed, mixed.Verdict);
        Assert.Contains("(median of 1 of 2 repetitions", mixed.Message, StringComparison.Ordinal);
        Assert.Equal(Verdict.NotJudged, short2.Verdict);
        Assert.EndsWith(", in each of its 2 repetitions", short2.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1000, 0.1, 100)]
    [InlineData(15, 0.1, 2)]
    [InlineData(3, 0.5, 1)]
    [InlineData(2, 0.1, 1)]
    public void A_window_is_the_rounded_share_of_the_span_at_most_half_of_it(int span, double fraction, int width) =>
        Assert.Equal(width, SoakTrend.WindowWidth(span, fraction));
}
